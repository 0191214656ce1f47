import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  forgetSettings,
  namedSecret,
  readSettings,
  settings,
  settingsProblems,
  SettingsError,
} from '../../../src/lib/settings/settings.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  forgetSettings();
});

describe('settings() reads the process environment', () => {
  it('once, typed, until told to forget it', () => {
    vi.stubEnv('UPSTREAM_TIMEOUT_MS', '1234');
    forgetSettings();
    expect(settings().UPSTREAM_TIMEOUT_MS).toBe(1234);
    vi.stubEnv('UPSTREAM_TIMEOUT_MS', '99');
    expect(settings().UPSTREAM_TIMEOUT_MS).toBe(1234);
    forgetSettings();
    expect(settings().UPSTREAM_TIMEOUT_MS).toBe(99);
  });

  it('refuses a bad value with the operator’s paragraph, while /_health can still list it', () => {
    vi.stubEnv('COMPRESSION', 'off');
    forgetSettings();
    expect(() => settings()).toThrow(SettingsError);
    expect(() => settings()).toThrow('COMPRESSION must be true or false (got "off")');
    expect(settingsProblems()).toEqual([
      { name: 'COMPRESSION', expected: 'true or false', given: 'off' },
    ]);
    // One setting can still be read while another is bad (Redis for /_health).
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:6399');
    expect(readSettings(['REDIS_URL']).REDIS_URL).toBe('redis://127.0.0.1:6399');
  });

  it('looks up the secrets tenants.json names; an empty one counts as unset', () => {
    vi.stubEnv('GAZETTE_TOKEN', 'abc');
    vi.stubEnv('HERALD_TOKEN', '');
    expect(namedSecret('GAZETTE_TOKEN')).toBe('abc');
    expect(namedSecret('HERALD_TOKEN')).toBeUndefined();
    expect(namedSecret(undefined)).toBeUndefined();
  });
});
