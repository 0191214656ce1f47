import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run dup` (in `npm run lint`): jscpd with the project's .jscpd.json, failing on any copy.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const JSCPD = join(root, 'node_modules/jscpd/run-jscpd.js');

function dup(folder: string) {
  const run = spawnSync(
    process.execPath,
    [JSCPD, folder, '--config', join(root, '.jscpd.json'), '--exit-code', '--no-colors'],
    { cwd: root, encoding: 'utf8' },
  );
  return { code: run.status, output: run.stdout + run.stderr };
}

// Six lines of real logic: what a shared function should own.
const copied = `export function nightsLabel(nights: number, locale: string): string {
  const rules = new Intl.PluralRules(locale);
  const form = rules.select(nights);
  const word = form === 'one' ? 'night' : 'nights';
  const number = new Intl.NumberFormat(locale).format(nights);
  return \`\${number} \${word}\`;
}
`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('npm run dup', () => {
  it('fails on a new copy of six lines in src/', () => {
    dir = mkdtempSync(join(tmpdir(), 'masthead-dup-'));
    mkdirSync(join(dir, 'src/lib/booking'), { recursive: true });
    mkdirSync(join(dir, 'src/lib/reading'), { recursive: true });
    writeFileSync(join(dir, 'src/lib/booking/nights.ts'), copied);
    writeFileSync(join(dir, 'src/lib/reading/nights.ts'), copied.replace('nightsLabel', 'label'));
    const { code, output } = dup(join(dir, 'src'));
    expect(code).toBe(1);
    expect(output).toContain('Found 1 clones');
  });

  it('passes on the project’s own src/', () => {
    const { code, output } = dup('src');
    expect(output).toContain('Found 0 clones');
    expect(code).toBe(0);
  });
});
