import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

// The project's own rules (.dependency-cruiser.cjs, run by `npm run lint`) on a small made-up src/.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const config = createRequire(import.meta.url)(
  join(root, '.dependency-cruiser.cjs'),
) as IConfiguration;

/** Writes `files` (path → source) under a fresh folder and returns the rules each import broke. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'masthead-layers-'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const previous = process.cwd();
  process.chdir(dir);
  try {
    const { tsConfig: _tsConfig, ...options } = config.options ?? {};
    const result = await cruise(['src'], {
      ...options,
      ruleSet: { forbidden: config.forbidden ?? [] },
      validate: true,
    });
    const output = result.output as ICruiseResult;
    return output.summary.violations.map(
      (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
    );
  } finally {
    process.chdir(previous);
    rmSync(dir, { recursive: true, force: true });
  }
}

const leaf = 'export const value = 1;\n';

describe('layer rules (dependency-cruiser)', () => {
  it('accept imports that go down: page → feature → client → upstream → settings', async () => {
    expect(
      await violations({
        'src/pages/index.ts':
          "import { load } from '../lib/reading/loaders.ts';\nexport const page = load;\n",
        'src/lib/reading/loaders.ts':
          "import { get } from '../publishing/client.ts';\nexport const load = get;\n",
        'src/lib/publishing/client.ts':
          "import { call } from '../upstream/http.ts';\nexport const get = call;\n",
        'src/lib/upstream/http.ts':
          "import { value } from '../settings/schema.ts';\nexport const call = value;\n",
        'src/lib/settings/schema.ts': leaf,
      }),
    ).toEqual([]);
  });

  it.each([
    [
      'src/lib importing a component',
      'src/lib/booking/view.ts',
      '../../components/booking/format.ts',
      'lib-not-to-app: src/lib/booking/view.ts → src/components/booking/format.ts',
    ],
    [
      'a client importing a feature',
      'src/lib/publishing/client.ts',
      '../reading/loaders.ts',
      'clients-not-to-features: src/lib/publishing/client.ts → src/lib/reading/loaders.ts',
    ],
    [
      'the upstream core importing a client',
      'src/lib/upstream/http.ts',
      '../lodging/client.ts',
      'upstream-below-clients: src/lib/upstream/http.ts → src/lib/lodging/client.ts',
    ],
    [
      'the settings importing the upstream',
      'src/lib/settings/schema.ts',
      '../upstream/http.ts',
      'base-below-all: src/lib/settings/schema.ts → src/lib/upstream/http.ts',
    ],
    [
      'a tenant module importing a feature',
      'src/lib/tenants/registry.ts',
      '../reading/loaders.ts',
      'base-below-all: src/lib/tenants/registry.ts → src/lib/reading/loaders.ts',
    ],
    [
      'the site importing the mock',
      'src/lib/reading/loaders.ts',
      '../../../mock/seed/posts.ts',
      'no-mock-in-src: src/lib/reading/loaders.ts → mock/seed/posts.ts',
    ],
  ])('refuse %s', async (_label, from, target, expected) => {
    const targetPath = join(dirname(from), target).replace(/\\/g, '/');
    const found = await violations({
      [from]: `import { value } from '${target}';\nexport const used = value;\n`,
      [targetPath]: leaf,
    });
    expect(found).toContain(expected);
  });

  it('refuse a cycle, even one made of type imports', async () => {
    const found = await violations({
      'src/lib/streams/status.ts':
        "import type { At } from './status-at.ts';\nexport type Status = At | 'live';\n",
      'src/lib/streams/status-at.ts':
        "import type { Status } from './status.ts';\nexport type At = Status | 'ended';\n",
    });
    const cycles = found.filter((line) => line.startsWith('no-circular:'));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatch(
      /src\/lib\/streams\/status(-at)?\.ts → src\/lib\/streams\/status(-at)?\.ts/,
    );
  });
});

describe('the real src/ passes the rules', () => {
  let found: string[] = [];
  beforeAll(async () => {
    const { tsConfig: _tsConfig, ...options } = config.options ?? {};
    const previous = process.cwd();
    process.chdir(root);
    try {
      const result = await cruise(['src'], {
        ...options,
        ruleSet: { forbidden: config.forbidden ?? [] },
        validate: true,
      });
      found = (result.output as ICruiseResult).summary.violations.map(
        (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
      );
    } finally {
      process.chdir(previous);
    }
  });
  it('has no import up a layer and no cycle', () => {
    expect(found).toEqual([]);
  });
});
