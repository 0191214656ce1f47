import {
  settingDefinitions,
  settingsSchema,
  type Setting,
  type SettingName,
  type Settings,
} from './schema.ts';

/**
 * The only reader of the process environment (ESLint refuses `process.env` and `astro:env`
 * anywhere else): the site, `npm start`, the static build and the bench all read their settings
 * here. Each function takes another environment for tests and the dev server's child.
 */

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

/** Every setting that does not fit its declaration, in declaration order (`/_health`); never throws. */
export function settingsProblems(
  env: Env = process.env,
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

/**
 * Only the named settings, read and checked on their own: the build's (astro.config.mjs), or one
 * that is needed while others are invalid (`/_health` still pings Redis then).
 */
export function readSettings<Name extends SettingName>(
  names: readonly Name[],
  env: Env = process.env,
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

let current: Settings | undefined;

/** The settings of this process, read once; throws a `SettingsError` when one does not fit. */
export function settings(): Settings {
  current ??= settingsFrom(process.env);
  return current;
}

/** `settings()` for the command-line tools: a bad value prints the operator's paragraph and exits 1. */
export function settingsOrExit(): Settings {
  try {
    return settings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** Reads the environment again on the next `settings()` (tests that change `process.env`). */
export function forgetSettings(): void {
  current = undefined;
}

/**
 * A variable whose name is only known at run time: the credentials `tenants.json` names
 * (`tokenEnv`, `emailEnv`, `passwordEnv`), which cannot be declared in the schema.
 */
export function namedSecret(name: string | undefined): string | undefined {
  return name === undefined ? undefined : process.env[name] || undefined;
}

/** This process's environment with `overrides`, for a child process (the static build's server). */
export function childEnvironment(
  overrides: Record<string, string | undefined>,
): Record<string, string | undefined> {
  return { ...process.env, ...overrides };
}

/**
 * Sets the Node adapter's own variables before it reads them: `npm start` turns off its autostart
 * before loading its handler; the start-up check gives the built entry its listening address.
 */
export function tellAdapter(variables: { ASTRO_NODE_AUTOSTART?: 'disabled'; HOST?: string }): void {
  Object.assign(process.env, variables);
}
