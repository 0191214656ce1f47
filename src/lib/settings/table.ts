import { settingDefinitions } from './schema.ts';

/** One row of the README's settings table: variable, default, purpose. */
export type SettingsRow = readonly [variable: string, shown: string, purpose: string];

/** The README's "Environment variables" table, row by row, from the schema (and its one extra row). */
export function settingsRows(): SettingsRow[] {
  return [
    ...Object.entries(settingDefinitions).map(
      ([name, setting]) => [`\`${name}\``, setting.shown, setting.purpose] as const,
    ),
    [
      'the names in `tenants.json`',
      'unset',
      'lodging credentials (`lodging.tokenEnv`, `emailEnv`, `passwordEnv`) and a publishing read token (`publishing.tokenEnv`), read with `namedSecret` when `SECRETS_FILE` has no value for them',
    ],
  ];
}

/** The table as Markdown (Prettier aligns its columns). */
export function settingsTable(): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['Variable', 'Default', 'Purpose']),
    line(['---', '---', '---']),
    ...settingsRows().map(line),
  ].join('\n');
}

export const TABLE_START = '<!-- settings table: npm run settings:readme -->';
export const TABLE_END = '<!-- end of settings table -->';

/** The README with its settings table (between the two markers) replaced by `table`. */
export function withSettingsTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md lacks the settings table markers');
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}
