import { envField } from 'astro/config';
import { describe, expect, it } from 'vitest';
import { settingsSchema } from '../../../src/lib/settings/schema.ts';
import {
  settingsMessage,
  settingsProblems,
  type SettingsSchema,
} from '../../../src/lib/settings/validate.ts';

describe('settingsProblems on the site’s schema', () => {
  it.each([
    ['nothing set', {}],
    ['empty values (unset)', { UPSTREAM_TIMEOUT_MS: '', COMPRESSION: '' }],
    [
      'fitting values',
      { UPSTREAM_TIMEOUT_MS: '2500', UPSTREAM_VISITOR_SHARE: '1', COMPRESSION: 'false' },
    ],
  ])('accepts %s', (_label, env) => {
    expect(settingsProblems(settingsSchema, env)).toEqual([]);
  });

  it.each([
    ['UPSTREAM_TIMEOUT_MS', 'abc', 'a number greater than 0'],
    ['UPSTREAM_TIMEOUT_MS', '0', 'a number greater than 0'],
    ['PAGE_DEADLINE_MS', '-5', 'a number greater than 0'],
    ['UPSTREAM_VISITOR_SHARE', '5', 'a number greater than 0 and at most 1'],
    ['COMMENTS_PER_IP_PER_10_MIN', '2.5', 'a whole number greater than 0'],
    ['SESSION_TTL_SECONDS', '1e-3', 'a whole number greater than 0'],
    ['COMPRESSION', 'off', 'true or false'],
    ['TRUST_PROXY', 'yes', 'true or false'],
  ])('refuses %s=%s: must be %s', (name, value, expected) => {
    expect(settingsProblems(settingsSchema, { [name]: value })).toEqual([
      { name, expected, given: value },
    ]);
  });

  it('lists every bad setting, in schema order', () => {
    const problems = settingsProblems(settingsSchema, {
      COMPRESSION: 'off',
      UPSTREAM_TIMEOUT_MS: '0',
    });
    expect(problems.map((problem) => problem.name)).toEqual(['UPSTREAM_TIMEOUT_MS', 'COMPRESSION']);
  });
});

describe('settingsProblems never carries a text setting’s value', () => {
  // The site's text settings accept anything; a constrained one stands in for a token rule.
  const schema: SettingsSchema = {
    API_TOKEN: envField.string({ context: 'server', access: 'secret', min: 32 }),
  };

  it('names a short token without its value', () => {
    const problems = settingsProblems(schema, { API_TOKEN: 'hunter2' });
    expect(problems).toEqual([
      { name: 'API_TOKEN', expected: 'text at least 32 characters', given: undefined },
    ]);
    expect(settingsMessage(problems)).not.toContain('hunter2');
  });

  it('names a required setting that is missing', () => {
    expect(settingsProblems(schema, {})).toEqual([
      { name: 'API_TOKEN', expected: 'set (text at least 32 characters)', given: undefined },
    ]);
  });
});

describe('settingsMessage', () => {
  it('is one paragraph naming each variable, its rule and the value given', () => {
    const problems = settingsProblems(settingsSchema, {
      UPSTREAM_TIMEOUT_MS: 'abc',
      COMPRESSION: 'off',
    });
    expect(settingsMessage(problems)).toMatchInlineSnapshot(
      `"Masthead cannot start: 2 invalid settings in the environment. UPSTREAM_TIMEOUT_MS must be a number greater than 0 (got "abc"); COMPRESSION must be true or false (got "off"). Fix each value, or unset it to keep its default (README, "Environment variables")."`,
    );
  });
});
