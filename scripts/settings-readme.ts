// `npm run settings:readme`: writes the README's "Environment variables" table from the settings schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { settingsTable, withSettingsTable } from '../src/lib/settings/table.ts';

const path = new URL('../README.md', import.meta.url);
const options = await resolveConfig(path);
const updated = withSettingsTable(readFileSync(path, 'utf8'), settingsTable());
writeFileSync(path, await format(updated, { ...options, parser: 'markdown' }));
console.log('README.md: settings table written from src/lib/settings/schema.ts');
