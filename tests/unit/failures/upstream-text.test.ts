import { describe, expect, it } from 'vitest';
import { authFailure } from '../../../src/lib/auth/failures.ts';
import { ACCOUNT_FORMS, fieldNames } from '../../../src/lib/auth/forms.ts';
import { recogniseUpstream } from '../../../src/lib/failures/upstream-text.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { localize, localizeFields } from '../../../src/lib/i18n/text.ts';
import { UnauthenticatedError, ValidationError } from '../../../src/lib/upstream/errors.ts';

const ctx = { service: 'publishing' as const, operation: 'auth.register', status: 422 };
const german = createI18n('de-CH', 'Europe/Zurich');
const french = createI18n('fr-CH', 'Europe/Zurich');

describe('recogniseUpstream', () => {
  it.each([
    ['These credentials do not match our records.', 'credentials', {}],
    ['Invalid credentials.', 'credentials', {}],
    ['The email has already been taken.', 'taken', {}],
    ['The name field is required.', 'required', {}],
    ['The email field must be a valid email address.', 'email', {}],
    ['The password field must be at least 8 characters.', 'tooShort', { min: 8 }],
    ['The name field must not be greater than 255 characters.', 'tooLong', { max: 255 }],
  ])('%s → %s', (message, rule, values) => {
    expect(recogniseUpstream(message)).toEqual({ rule, values });
  });

  it('leaves a sentence it does not know alone', () => {
    expect(recogniseUpstream('Registrations are closed this week.')).toBeNull();
  });
});

describe('upstream validation in the reader language', () => {
  it('register: each known field says it in German, with the upstream minimum', () => {
    const error = new ValidationError('422', ctx, {
      name: ['The name field is required.'],
      email: ['The email field must be a valid email address.'],
      password: ['The password field must be at least 10 characters.'],
    });
    const failure = authFailure(
      error,
      fieldNames('register'),
      undefined,
      ACCOUNT_FORMS.register.keys,
    );
    expect(localizeFields(german, failure?.fields ?? {})).toEqual({
      name: [german.t('auth.nameRequired')],
      email: [german.t('auth.emailInvalid')],
      password: [german.t('auth.passwordShort', { min: 10 })],
    });
    expect(failure?.upstream?.fields?.['name']).toEqual(['The name field is required.']);
  });

  it('an unknown sentence is shown as the upstream wrote it', () => {
    const error = new ValidationError('422', ctx, { email: ['Domain is blocklisted.'] });
    const failure = authFailure(
      error,
      fieldNames('register'),
      undefined,
      ACCOUNT_FORMS.register.keys,
    );
    expect(failure?.fields).toEqual({ email: ['Domain is blocklisted.'] });
    expect(failure?.upstream).toBeUndefined();
  });

  it('a 422 that names no field but says the credentials are wrong: the summary in French', () => {
    const error = new ValidationError(
      '422',
      { ...ctx, upstreamMessage: 'Invalid login or password.' },
      {},
    );
    const failure = authFailure(error, fieldNames('login'), undefined, ACCOUNT_FORMS.login.keys);
    expect(localize(french, failure?.message ?? '')).toBe(french.t('auth.credentialsWrong'));
  });

  it('a 401 to the sign-in puts the German refusal on the e-mail field', () => {
    const error = new UnauthenticatedError('401', {
      ...ctx,
      operation: 'auth.login',
      status: 401,
      upstreamMessage: 'Unauthorized',
    });
    const failure = authFailure(error, fieldNames('login'), undefined, ACCOUNT_FORMS.login.keys);
    expect(failure?.code).toBe('BAD_REQUEST');
    expect(localizeFields(german, failure?.fields ?? {})).toEqual({
      email: ['E-Mail-Adresse oder Passwort stimmen nicht.'],
    });
  });
});
