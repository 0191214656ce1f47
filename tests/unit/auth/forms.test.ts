import { describe, expect, it } from 'vitest';
import { loginInput, registerInput } from '../../../src/lib/auth/forms.ts';
import { english } from '../../fixtures/english.ts';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
  );
}

// Astro turns an empty form field into null before parsing.
describe('loginInput', () => {
  it('asks for both fields', () => {
    expect(english(messages(loginInput.safeParse({ email: null, password: null })))).toEqual({
      email: 'Enter your e-mail address.',
      password: 'Enter your password.',
    });
  });

  it('trims the e-mail address but never the password', () => {
    expect(loginInput.parse({ email: ' a@b.example ', password: ' secret ' })).toEqual({
      email: 'a@b.example',
      password: ' secret ',
    });
  });

  it.each(['josé@example.com', 'user@bücher.de', 'иван@пример.рф'])(
    'signs in with %s (letters of any script, as the API accepts them)',
    (email) => {
      expect(loginInput.safeParse({ email, password: 'x' })).toMatchObject({
        success: true,
        data: { email },
      });
    },
  );

  it('explains a malformed e-mail address', () => {
    expect(english(messages(loginInput.safeParse({ email: 'nope', password: 'x' })))).toEqual({
      email: 'Enter an e-mail address like name@example.com.',
    });
  });
});

describe('registerInput', () => {
  const valid = {
    name: 'Ada',
    email: 'ada@example.com',
    password: 'long enough',
    password_confirmation: 'long enough',
  };

  it('accepts a complete form', () => {
    expect(registerInput.parse(valid)).toEqual(valid);
  });

  it.each(['josé@example.com', 'user@bücher.de'])('registers %s', (email) => {
    expect(registerInput.parse({ ...valid, email })).toEqual({ ...valid, email });
  });

  // A phone's autocorrect types ’ for ' and – for -: the account is the mailbox meant, not one that cannot exist.
  it('registers o’brien–hay@example.com as the mailbox it stands for', () => {
    expect(registerInput.parse({ ...valid, email: 'o’brien–hay@example.com' })).toEqual({
      ...valid,
      email: "o'brien-hay@example.com",
    });
    expect(loginInput.parse({ email: ' o’brien@example.com', password: 'x' })).toMatchObject({
      email: "o'brien@example.com",
    });
  });

  it.each(['', '   ', '\u200b\u200d', '\u202e\ufeff'])(
    'asks for a name when it shows nothing (%j)',
    (name) => {
      expect(english(messages(registerInput.safeParse({ ...valid, name })))).toEqual({
        name: 'Enter your name.',
      });
    },
  );

  it('shows every message after one submit, the confirmation included', () => {
    expect(
      english(
        messages(
          registerInput.safeParse({
            name: null,
            email: 'x',
            password: 'short',
            password_confirmation: 'other',
          }),
        ),
      ),
    ).toEqual({
      name: 'Enter your name.',
      email: 'Enter an e-mail address like name@example.com.',
      password: 'Use at least 8 characters.',
      password_confirmation: 'The two passwords do not match.',
    });
  });

  it('asks for a name that is more than spaces', () => {
    expect(english(messages(registerInput.safeParse({ ...valid, name: '   ' })))).toEqual({
      name: 'Enter your name.',
    });
  });
});
