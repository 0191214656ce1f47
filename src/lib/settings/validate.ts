import { validateEnvVariable } from 'astro/env/runtime';

/** One declared setting, exactly as Astro's `astro:env` validator reads it. */
export type SettingField = Parameters<typeof validateEnvVariable>[1];
export type SettingsSchema = Readonly<Record<string, SettingField>>;

export interface SettingProblem {
  name: string;
  /** What the value must be, e.g. "a whole number greater than 0". */
  expected: string;
  /** The value as given; `undefined` for text settings, which may be tokens or URLs with passwords. */
  given: string | undefined;
}

/** "a number greater than 0 and at most 1", "true or false", … from the field's own constraints. */
export function describeSetting(field: SettingField): string {
  if (field.type === 'boolean') return 'true or false';
  if (field.type === 'enum') return `one of ${field.values.join(', ')}`;
  const bounds: string[] = [];
  if (field.type === 'number') {
    if (field.gt !== undefined) bounds.push(`greater than ${field.gt}`);
    if (field.min !== undefined) bounds.push(`at least ${field.min}`);
    if (field.lt !== undefined) bounds.push(`less than ${field.lt}`);
    if (field.max !== undefined) bounds.push(`at most ${field.max}`);
    const kind = field.int ? 'a whole number' : 'a number';
    return [kind, bounds.join(' and ')].filter(Boolean).join(' ');
  }
  if (field.min !== undefined) bounds.push(`at least ${field.min} characters`);
  if (field.max !== undefined) bounds.push(`at most ${field.max} characters`);
  if (field.length !== undefined) bounds.push(`exactly ${field.length} characters`);
  if (field.url) bounds.push('a URL');
  if (field.startsWith !== undefined) bounds.push(`starting with "${field.startsWith}"`);
  if (field.endsWith !== undefined) bounds.push(`ending with "${field.endsWith}"`);
  if (field.includes !== undefined) bounds.push(`containing "${field.includes}"`);
  return ['text', bounds.join(', ')].filter(Boolean).join(' ');
}

/**
 * The settings of `env` that Astro's `astro:env/server` would refuse (so every page would answer
 * 500): same validator, same rule that an empty value counts as unset.
 */
export function settingsProblems(
  schema: SettingsSchema,
  env: Record<string, string | undefined>,
): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const [name, field] of Object.entries(schema)) {
    const raw = env[name];
    const value = raw === '' ? undefined : raw;
    if (validateEnvVariable(value, field).ok) continue;
    const expected =
      value === undefined ? `set (${describeSetting(field)})` : describeSetting(field);
    problems.push({ name, expected, given: field.type === 'string' ? undefined : value });
  }
  return problems;
}

/** One problem: `UPSTREAM_TIMEOUT_MS must be a number greater than 0 (got "abc")`. */
export function describeProblem(problem: SettingProblem, showValue = true): string {
  const given =
    !showValue || problem.given === undefined ? '' : ` (got ${JSON.stringify(problem.given)})`;
  return `${problem.name} must be ${problem.expected}${given}`;
}

/** The one paragraph an operator sees when the server refuses to start. */
export function settingsMessage(problems: readonly SettingProblem[]): string {
  const count =
    problems.length === 1 ? 'an invalid setting' : `${problems.length} invalid settings`;
  return (
    `Masthead cannot start: ${count} in the environment. ` +
    `${problems.map((problem) => describeProblem(problem)).join('; ')}. ` +
    'Fix each value, or unset it to keep its default (README, "Environment variables").'
  );
}
