import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The project's ESLint config, on made-up sources at real paths; only the import and environment
// rules run (the type-checked ones would need the whole program).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = new Set([
  'no-restricted-properties',
  'no-restricted-syntax',
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
]);
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => RULES.has(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** `rule: message` of each problem ESLint finds in `source` as if it stood at `path`. */
export async function messages(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(root, path) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}
