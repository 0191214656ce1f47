import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** The paths at the start of each line of the README's project tree. */
function treePaths(text: string): string[] {
  const start = text.indexOf('## Project structure');
  const block = text.slice(start).split('```text\n')[1]?.split('```')[0] ?? '';
  return block
    .split('\n')
    .flatMap((line) => line.match(/^(\S+?)(,|\s|$)/)?.[1] ?? [])
    .flatMap((entry) => entry.split(',').filter(Boolean));
}

describe('README', () => {
  it('names only files and folders that exist in its project tree', () => {
    const paths = treePaths(readme);
    expect(paths).toContain('src/lib/settings/');
    expect(paths.filter((path) => !existsSync(new URL(path, root)))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = [...readme.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((link) => !existsSync(new URL(link, root)))).toEqual([]);
  });

  it('shows the e-paper reader by path, as the site links it (the query form is a 301)', () => {
    expect(readme).not.toMatch(/\/epaper\/<slug>\?page=/);
  });
});
