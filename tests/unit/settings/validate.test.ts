import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settingDefaults, type Setting } from '../../../src/lib/settings/schema.ts';
import {
  readSettings,
  settingsFrom,
  settingsMessage,
  settingsProblems,
  SettingsError,
} from '../../../src/lib/settings/settings.ts';

describe('settingsProblems on the site’s schema', () => {
  it.each([
    ['nothing set', {}],
    ['empty values (unset)', { UPSTREAM_TIMEOUT_MS: '', COMPRESSION: '' }],
    [
      'fitting values',
      { UPSTREAM_TIMEOUT_MS: '2500', UPSTREAM_VISITOR_SHARE: '1', COMPRESSION: 'false', PORT: '0' },
    ],
  ])('accepts %s', (_label, env) => {
    expect(settingsProblems(env)).toEqual([]);
  });

  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
  ])('reads TRUST_PROXY=%s as %s (proxies in front of Node)', (value, read) => {
    expect(settingsFrom({ TRUST_PROXY: value }).TRUST_PROXY).toBe(read);
  });
  it.each(['0', '10', '1.5'])('refuses TRUST_PROXY=%s', (value) => {
    expect(settingsProblems({ TRUST_PROXY: value })).toHaveLength(1);
  });

  it.each([
    ['UPSTREAM_TIMEOUT_MS', 'abc', 'a number greater than 0'],
    ['UPSTREAM_TIMEOUT_MS', '0', 'a number greater than 0'],
    ['PAGE_DEADLINE_MS', '-5', 'a number greater than 0'],
    ['UPSTREAM_VISITOR_SHARE', '5', 'a number greater than 0 and at most 1'],
    ['COMMENTS_PER_IP_PER_10_MIN', '2.5', 'a whole number greater than 0'],
    ['SESSION_TTL_SECONDS', '1e-3', 'a whole number greater than 0'],
    ['SESSION_TTL_SECONDS', 'soon', 'a whole number greater than 0'],
    ['PORT', '70000', 'a whole number at least 0 and at most 65535'],
    ['MASTHEAD_STATIC_FRESH_SECONDS', '-1', 'a number at least 0'],
    ['COMPRESSION', 'off', 'true or false'],
    ['TRUST_PROXY', 'yes', 'true, false or the number of proxies in front of Node (1 to 9)'],
  ])('refuses %s=%s: must be %s', (name, value, expected) => {
    expect(settingsProblems({ [name]: value })).toEqual([{ name, expected, given: value }]);
  });

  it('refuses an IMAGE_SIGNING_SECRET shorter than 16 characters at start, never its value', () => {
    expect(settingsProblems({ IMAGE_SIGNING_SECRET: 'x'.repeat(15) })).toEqual([
      {
        name: 'IMAGE_SIGNING_SECRET',
        expected: expect.stringContaining('at least 16 characters') as string,
        given: undefined,
      },
    ]);
    expect(settingsProblems({ IMAGE_SIGNING_SECRET: 'x'.repeat(16) })).toEqual([]);
  });

  it('refuses an API address that is not http(s), without repeating it (it may hold a password)', () => {
    expect(settingsProblems({ PUBLISHING_BASE_URL: 'ftp://user:pw@example.com/' })).toEqual([
      { name: 'PUBLISHING_BASE_URL', expected: 'an http(s) URL', given: undefined },
    ]);
  });

  it.each(['STATUS_TOKEN', 'METRICS_TOKEN'])(
    'refuses a %s shorter than 32 characters, naming it and never its value',
    (name) => {
      expect(settingsProblems({ [name]: 'x'.repeat(31) })).toEqual([
        {
          name,
          expected: expect.stringContaining('at least 32 characters') as string,
          given: undefined,
        },
      ]);
      expect(settingsProblems({ [name]: 'x'.repeat(32) })).toEqual([]);
      expect(() => settingsFrom({ [name]: 'short-token' })).toThrow(
        new RegExp(`${name} must be a token of at least 32 characters`),
      );
    },
  );

  it.each([
    ['daily-planet=short', false],
    [`daily-planet=${'p'.repeat(32)},harbour-times=short`, false],
    ['daily-planet', false],
    [`daily-planet=${'p'.repeat(32)}, harbour-times = ${'h'.repeat(32)} ,alpine-post=`, true],
  ])('checks every secret of PURGE_SECRETS=%s is long enough: %s', (value, fits) => {
    const problems = settingsProblems({ PURGE_SECRETS: value });
    expect(problems).toEqual(
      fits
        ? []
        : [
            {
              name: 'PURGE_SECRETS',
              expected: expect.stringContaining('each secret at least 32 characters') as string,
              given: undefined,
            },
          ],
    );
  });

  it('reads PURGE_SECRETS as secret by tenant id, leaving out pairs without a secret', () => {
    const value = `daily-planet=${'p'.repeat(32)}, harbour-times = ${'h='.repeat(16)} ,alpine-post=`;
    expect(settingsFrom({ PURGE_SECRETS: value }).PURGE_SECRETS).toEqual(
      new Map([
        ['daily-planet', 'p'.repeat(32)],
        ['harbour-times', 'h='.repeat(16)],
      ]),
    );
  });

  it('lists every bad setting, in schema order', () => {
    const problems = settingsProblems({ COMPRESSION: 'off', UPSTREAM_TIMEOUT_MS: '0' });
    expect(problems.map((problem) => problem.name)).toEqual(['COMPRESSION', 'UPSTREAM_TIMEOUT_MS']);
  });
});

describe('settingsProblems never carries a text setting’s value', () => {
  // The site's text settings accept anything; a constrained one stands in for a token rule.
  const definitions: Record<string, Setting> = {
    API_TOKEN: {
      schema: z.string().min(32),
      expected: 'text of at least 32 characters',
      shown: 'unset',
      purpose: 'a token',
      hidden: true,
    },
  };

  it('names a short token without its value', () => {
    const problems = settingsProblems({ API_TOKEN: 'hunter2' }, definitions);
    expect(problems).toEqual([
      { name: 'API_TOKEN', expected: 'text of at least 32 characters', given: undefined },
    ]);
    expect(settingsMessage(problems)).not.toContain('hunter2');
  });

  it('names a required setting that is missing', () => {
    expect(settingsProblems({}, definitions)).toEqual([
      { name: 'API_TOKEN', expected: 'set (text of at least 32 characters)', given: undefined },
    ]);
  });
});

describe('settingsFrom', () => {
  it('gives every setting typed, with the schema’s defaults for unset and empty ones', () => {
    const read = settingsFrom({ UPSTREAM_TIMEOUT_MS: '2500', COMPRESSION: 'false', REDIS_URL: '' });
    expect(read.UPSTREAM_TIMEOUT_MS).toBe(2500);
    expect(read.COMPRESSION).toBe(false);
    expect(read.REDIS_URL).toBeUndefined();
    expect(read.SESSION_TTL_SECONDS).toBe(14 * 24 * 60 * 60);
    expect(read.PUBLISHING_PUBLIC_PER_MINUTE).toBe(60);
    expect(read.MASTHEAD_OUT_DIR).toBe('./dist');
    expect(settingsFrom({})).toEqual(settingDefaults);
  });

  it('throws one error naming every bad value, never a default in its place', () => {
    expect(() => settingsFrom({ SESSION_TTL_SECONDS: '0', TRUST_PROXY: 'yes' })).toThrow(
      new SettingsError([
        {
          name: 'TRUST_PROXY',
          expected: 'true, false or the number of proxies in front of Node (1 to 9)',
          given: 'yes',
        },
        { name: 'SESSION_TTL_SECONDS', expected: 'a whole number greater than 0', given: '0' },
      ]),
    );
  });

  it('reads the variables the code used to parse by hand: API overrides and the session lifetime', () => {
    const read = settingsFrom({
      PUBLISHING_BASE_URL: 'http://127.0.0.1:5711/api/v1',
      LODGING_BASE_URL: 'https://lodging.example/api/v1',
      SESSION_TTL_SECONDS: '3600',
    });
    expect(read).toMatchObject({
      PUBLISHING_BASE_URL: 'http://127.0.0.1:5711/api/v1',
      LODGING_BASE_URL: 'https://lodging.example/api/v1',
      SESSION_TTL_SECONDS: 3600,
    });
  });
});

describe('readSettings', () => {
  it('reads and checks only the named settings', () => {
    const env = { MASTHEAD_OUT_DIR: './dist-alt', UPSTREAM_TIMEOUT_MS: 'abc' };
    expect(readSettings(['MASTHEAD_OUT_DIR', 'MASTHEAD_BENCH'], env)).toMatchObject({
      MASTHEAD_OUT_DIR: './dist-alt',
      MASTHEAD_BENCH: false,
    });
    expect(() => readSettings(['UPSTREAM_TIMEOUT_MS'], env)).toThrow(SettingsError);
  });
});

describe('settingsMessage', () => {
  it('is one paragraph naming each variable, its rule and the value given', () => {
    const problems = settingsProblems({ UPSTREAM_TIMEOUT_MS: 'abc', COMPRESSION: 'off' });
    expect(settingsMessage(problems)).toMatchInlineSnapshot(
      `"Masthead cannot start: 2 invalid settings in the environment. COMPRESSION must be true or false (got "off"); UPSTREAM_TIMEOUT_MS must be a number greater than 0 (got "abc"). Fix each value, or unset it to keep its default (README, "Environment variables")."`,
    );
  });
});
