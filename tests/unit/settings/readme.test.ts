import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingDefinitions } from '../../../src/lib/settings/schema.ts';
import {
  settingsRows,
  settingsTable,
  TABLE_END,
  TABLE_START,
  withSettingsTable,
} from '../../../src/lib/settings/table.ts';

/** The rows of the table between the markers, cells trimmed (whatever the column padding). */
function readmeSettingsRows(readme: string): string[][] {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return [];
  return readme
    .slice(start, end)
    .split('\n')
    .filter((row) => row.startsWith('|'))
    .slice(2)
    .map((row) =>
      row
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('the README settings table', () => {
  it('lists every declared setting with its default and purpose, as the schema says (npm run settings:readme)', () => {
    expect(readmeSettingsRows(readme)).toEqual(settingsRows().map((row) => [...row]));
  });

  it('would notice a setting declared but missing from the README', () => {
    const names = Object.keys(settingDefinitions);
    expect(names).toContain('PUBLISHING_BASE_URL');
    const stale = withSettingsTable(
      readme,
      settingsTable()
        .split('\n')
        .filter((row) => !row.includes('`PUBLISHING_BASE_URL`'))
        .join('\n'),
    );
    expect(readmeSettingsRows(stale)).not.toEqual(settingsRows().map((row) => [...row]));
  });
});
