import {
  settingDefinitions,
  settingsSchema,
  type Setting,
  type SettingName,
  type Settings,
} from './schema.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface SettingProblem {
  name: string;
  /** What the value must be, e.g. "a whole number greater than 0". */
  expected: string;
  /** The value as given; `undefined` for text settings, which may be tokens or URLs with passwords. */
  given: string | undefined;
}

/** An environment that does not fit the schema; the message is the one paragraph operators see. */
export class SettingsError extends Error {
  override name = 'SettingsError';
  readonly problems: readonly SettingProblem[];
  constructor(problems: readonly SettingProblem[]) {
    super(settingsMessage(problems));
    this.problems = problems;
  }
}

/** An empty variable counts as unset (keeps its default). */
function valueOf(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === '' ? undefined : raw;
}

/** Every setting of `env` that does not fit its declaration, in declaration order. */
export function settingsProblems(
  env: Env,
  definitions: Readonly<Record<string, Setting>> = settingDefinitions,
): SettingProblem[] {
  return Object.entries(definitions).flatMap(([name, setting]) => {
    const value = valueOf(env, name);
    if (setting.schema.safeParse(value).success) return [];
    const expected = value === undefined ? `set (${setting.expected})` : setting.expected;
    return [{ name, expected, given: setting.hidden ? undefined : value }];
  });
}

/** The typed settings of `env`, defaults filled in; a `SettingsError` naming every bad value. */
export function settingsFrom(env: Env): Settings {
  const problems = settingsProblems(env);
  if (problems.length > 0) throw new SettingsError(problems);
  const names = Object.keys(settingDefinitions);
  return settingsSchema.parse(Object.fromEntries(names.map((name) => [name, valueOf(env, name)])));
}

/** Only the named settings of `env` (the others are neither read nor checked): for build tools. */
export function pickSettings<Name extends SettingName>(
  env: Env,
  names: readonly Name[],
): Pick<Settings, Name> {
  return settingsFrom(Object.fromEntries(names.map((name) => [name, env[name]])));
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
