import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSpelling, SECRET_KEY_NAMES } from '../../../src/lib/secrets/schema.ts';
import { settingDefinitions } from '../../../src/lib/settings/schema.ts';
import { TenantSchema } from '../../../src/lib/tenants/schema.ts';
import { listenChoice, PROXY_ONLY_HOST } from '../../../src/lib/settings/listen.ts';

const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** The paths at the start of each line of the README's project tree (`a/, b/, c/` names three). */
function treePaths(text: string): string[] {
  const start = text.indexOf('## Project structure');
  const block = text.slice(start).split('```text\n')[1]?.split('```')[0] ?? '';
  return block
    .split('\n')
    .flatMap((line) => line.match(/^[^\s,]+(?:, [^\s,]+)*/)?.[0] ?? [])
    .flatMap((entries) => entries.split(/,\s*/).filter(Boolean));
}

/** Repository paths a text names (`src/…`, `tests/…`, `docs/…`…), without placeholders (`<area>`, `*`). */
function repoPaths(text: string): string[] {
  const found = text.match(
    /(?<![\w./-])(?:src|tests|scripts|docs|mock|deploy|bench|profiles)\/[\w./<>{}[\]*,-]*[\w/]/g,
  );
  return [...new Set(found ?? [])].filter((path) => !/[<{*[]/.test(path));
}

/** Named but not in the repository on purpose: benchmark output (git-ignored), an example's file. */
const NOT_IN_REPO = new Set(['bench/results/', 'profiles/my-api.json']);

/** The object inside optional and default wrappers, if the schema is one; else `undefined`. */
function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let current = schema as { shape?: Record<string, unknown>; def?: { innerType?: unknown } };
  while (current.shape === undefined && current.def?.innerType !== undefined) {
    current = current.def.innerType as typeof current;
  }
  return current.shape;
}

/** The first-column names of the README's tenants.json table (`theme.colors`, `name`…). */
function tenantTableFields(text: string): Set<string> {
  const section = text.slice(text.indexOf('## tenants.json reference')).split('\n## ')[0] ?? '';
  const firstCells = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|')[1] ?? '');
  return new Set(
    firstCells.flatMap((cell) => [...cell.matchAll(/`([\w.$]+)`/g)].map((m) => m[1] ?? '')),
  );
}

/** The README and the docs beside it. */
const TEXTS = [
  'README.md',
  'mock/README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('README', () => {
  it('names only files and folders that exist in its project tree', () => {
    const paths = treePaths(readme);
    expect(paths).toContain('src/lib/settings/');
    const concrete = paths.filter((path) => !path.includes('<'));
    expect(concrete).toContain('src/lib/comments/');
    expect(concrete.filter((path) => !existsSync(new URL(path, root)))).toEqual([]);
  });

  it('names every folder of src/ and src/lib/ in its project tree', () => {
    const paths = treePaths(readme);
    const folders = (dir: string) =>
      readdirSync(new URL(dir, root), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${dir}${entry.name}/`);
    const named = (folder: string) => paths.some((path) => path.startsWith(folder));
    const unnamed = [...folders('src/'), ...folders('src/lib/')].filter(
      (folder) => folder !== 'src/lib/' && !named(folder),
    );
    expect(unnamed).toEqual([]);
  });

  it('links only to files that exist, in the README as in the docs beside it', () => {
    const links = (file: string) =>
      [...readFileSync(new URL(file, root), 'utf8').matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)].map(
        (match) => new URL(match[1] ?? '', new URL(file, root)),
      );
    expect(links('README.md').length).toBeGreaterThan(3);
    const broken = TEXTS.flatMap((file) =>
      links(file)
        .filter((url) => !existsSync(url))
        .map((url) => `${file}: ${url.pathname}`),
    );
    expect(broken).toEqual([]);
  });

  it('shows the e-paper reader by path, as the site links it (the query form is a 301)', () => {
    expect(readme).not.toMatch(/\/epaper\/<slug>\?page=/);
  });

  it('names only paths that exist, in its text as in the docs beside it', () => {
    const missing = TEXTS.flatMap((file) =>
      repoPaths(readFileSync(new URL(file, root), 'utf8'))
        .filter((path) => !NOT_IN_REPO.has(path) && !existsSync(new URL(path, root)))
        .map((path) => `${file}: ${path}`),
    );
    expect(repoPaths(readme)).toContain('src/lib/services/clients.ts');
    expect(missing).toEqual([]);
  });

  it('names only settings the schema declares, besides the test, mock and tenant variables', () => {
    const tenantsFile = readFileSync(new URL('tenants.json', root), 'utf8');
    // Tenants name their own token variables (`tokenEnv`, `emailEnv`, …) in tenants.json.
    const tenantVariables = new Set(tenantsFile.match(/(?<="\w+Env": ")[A-Z0-9_]+/g) ?? []);
    const harness = /^(MOCK|BENCH|E2E)_|^CHROMIUM_PATH$/;
    // What `npm start` sets for the runtime itself (the allocator's variables), not Masthead's.
    const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      scripts: { start: string };
    };
    const runtime = new Set(packageJson.scripts.start.match(/\b[A-Z][A-Z0-9_]+(?==)/g) ?? []);
    // The names of a secrets file's `.env` lines (`<tenant-id>__LODGING_TOKEN=`), not variables.
    const secretNames = new Set(SECRET_KEY_NAMES.map(envSpelling));
    expect(runtime).toContain('MALLOC_ARENA_MAX');
    const unknown = TEXTS.flatMap((file) =>
      [
        ...readFileSync(new URL(file, root), 'utf8').matchAll(
          /`([A-Z][A-Z0-9]*_[A-Z0-9_]+)(=[^`]*)?`/g,
        ),
      ]
        .map((match) => match[1] ?? '')
        .filter((name) => !(name in settingDefinitions) && !tenantVariables.has(name))
        .filter((name) => !harness.test(name) && !runtime.has(name) && !secretNames.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(tenantVariables).toContain('HARBOUR_LODGING_TOKEN');
    expect(unknown).toEqual([]);
  });

  it('names every field of a tenant in its tenants.json table (a config object: each of its fields)', () => {
    const named = tenantTableFields(readme);
    expect(named).toContain('publishing.baseUrl');
    const missing = Object.entries(TenantSchema.shape).flatMap(([field, schema]) => {
      const inner = objectShape(schema);
      // A row for the whole object (`features`, `messages`) or one per field of it.
      if (!inner || named.has(field)) return named.has(field) ? [] : [field];
      return Object.keys(inner)
        .map((key) => `${field}.${key}`)
        .filter((path) => !named.has(path));
    });
    expect(missing).toEqual([]);
  });

  it('names only npm scripts that package.json has', () => {
    const packageJson = readFileSync(new URL('package.json', root), 'utf8');
    const scripts = (JSON.parse(packageJson) as { scripts: Record<string, string> }).scripts;
    const named = TEXTS.flatMap((file) =>
      [...readFileSync(new URL(file, root), 'utf8').matchAll(/npm run ([\w:.-]*\w)/g)].map(
        (match) => ({ file, script: match[1] ?? '' }),
      ),
    );
    expect(named.map(({ script }) => script)).toContain('settings:readme');
    expect(named.filter(({ script }) => !(script in scripts))).toEqual([]);
  });
});

describe('docs/deploy.md, followed as written', () => {
  const guide = readFileSync(new URL('docs/deploy.md', root), 'utf8');
  const section = (title: string) => guide.slice(guide.indexOf(title)).split('\n## ')[0] ?? '';

  it('installs the cache purge module the shipped nginx config needs (nginx -t fails without it)', () => {
    const config = readFileSync(new URL('deploy/nginx/masthead.conf', root), 'utf8');
    expect(config).toMatch(/^\s*proxy_cache_purge /m);
    const install = /```sh\n([\s\S]*?)```/.exec(section('## 3. The edge cache'))?.[1] ?? '';
    expect(install).toMatch(/apt-get install [^\n]*\blibnginx-mod-http-cache-purge\b/);
  });

  it('gives the static build its command, not a promise', () => {
    const text = section('## 5. Static builds');
    expect(text).toContain('npm run build:static -- ');
    expect(text).not.toMatch(/when it lands|haven't landed|not landed|tracked as its own issue/i);
  });

  it('states where Node listens as the code decides it (loopback behind a trusted proxy)', () => {
    const row = guide.split('\n').find((line) => line.startsWith('| `HOST`'));
    expect(row).toContain(`\`${PROXY_ONLY_HOST}\` with \`TRUST_PROXY=true\``);
    expect(row).not.toContain('`localhost`');
    expect(listenChoice({ TRUST_PROXY: true }).host).toBe(PROXY_ONLY_HOST);
    expect(settingDefinitions.HOST.shown).toContain(
      `\`${PROXY_ONLY_HOST}\` with \`TRUST_PROXY=true\``,
    );
  });
});
