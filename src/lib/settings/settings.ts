import type { SettingName, Settings } from './schema.ts';
import {
  pickSettings,
  settingsFrom,
  settingsProblems,
  SettingsError,
  type SettingProblem,
} from './validate.ts';

/**
 * The only reader of the process environment (ESLint refuses `process.env` and `astro:env`
 * anywhere else): the site, `npm start`, the static build and the bench all read their settings here.
 */

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

/** What is wrong with this process's environment (`/_health`, the start-up check); never throws. */
export function environmentProblems(): SettingProblem[] {
  return settingsProblems(process.env);
}

/**
 * Only the named settings, read and checked on their own: the build's (astro.config.mjs), or one
 * that is needed while others are invalid (`/_health` still pings Redis then).
 */
export function readSettings<Name extends SettingName>(
  names: readonly Name[],
): Pick<Settings, Name> {
  return pickSettings(process.env, names);
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
