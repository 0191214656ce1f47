import { describe, expect, it } from 'vitest';
import { textKey } from '../../../src/lib/i18n/text-key.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import {
  EMPTY_FORM,
  MESSAGES,
  describeError,
  formState,
  submittedValues,
  tooManyAttempts,
} from '../../../src/lib/auth/failures.ts';

/** What the form's POST kept for its GET (src/lib/forms/after-post.ts). */
const post = (fields: Record<string, string>): Record<string, string> => fields;

const en = createI18n('en-GB', 'UTC');
const de = createI18n('de-CH', 'Europe/Zurich');

describe('describeError', () => {
  it('reads field messages of an input error, with the generic summary', () => {
    expect(
      describeError(
        {
          type: 'AstroActionInputError',
          code: 'BAD_REQUEST',
          message: 'Failed to validate: […]',
          fields: { email: ['Enter your e-mail address.'] },
          issues: [{ path: ['email'], message: 'Enter your e-mail address.' }],
        },
        en,
      ),
    ).toEqual({
      message: 'Please correct the highlighted fields.',
      fields: { email: ['Enter your e-mail address.'] },
    });
  });

  it('takes the summary from issues without a field (upstream field errors)', () => {
    expect(
      describeError(
        {
          type: 'AstroActionInputError',
          fields: { email: ['Taken.'] },
          issues: [
            { path: ['email'], message: 'Taken.' },
            { path: [], message: 'We could not log you in.' },
          ],
        },
        en,
      ).message,
    ).toBe('We could not log you in.');
  });

  it.each(['TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE', 'UNAUTHORIZED', 'BAD_REQUEST'])(
    'shows our own message for %s',
    (code) => {
      expect(describeError({ type: 'AstroActionError', code, message: 'Ours.' }, en)).toEqual({
        message: 'Ours.',
        fields: {},
      });
    },
  );

  it.each([
    ['an unexpected error', { code: 'INTERNAL_SERVER_ERROR', message: 'at Foo (/srv/x.js:1:2)' }],
    ['an Astro error', { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'This action only accepts …' }],
    ['an empty message', { code: 'BAD_REQUEST', message: '' }],
  ])('never shows the text of %s', (_name, error) => {
    expect(describeError(error, en).message).toBe(
      'Something went wrong on our side. Please try again.',
    );
  });
});

describe('submittedValues', () => {
  it('returns what was typed, never a password', () => {
    const kept = post({ email: 'a@b.example', password: 'secret', next: '/plans' });
    expect(submittedValues(kept, ['email', 'password', 'next'])).toEqual({
      email: 'a@b.example',
      next: '/plans',
    });
  });

  it('is empty when nothing was kept', () => {
    expect(submittedValues(undefined, ['email'])).toEqual({});
    expect(submittedValues({ name: 'x' }, ['email'])).toEqual({});
  });
});

describe('formState', () => {
  it('is empty without an error', () => {
    expect(formState(post({ email: 'a@b.example' }), undefined, ['email'], en)).toBe(EMPTY_FORM);
  });

  it('combines messages and kept values', () => {
    const state = formState(
      post({ email: 'a@b.example', password: 'x' }),
      { code: 'SERVICE_UNAVAILABLE', message: MESSAGES.unavailable },
      ['email', 'password'],
      en,
    );
    expect(state).toEqual({
      message: 'We could not reach the sign-in service just now. Please try again in a moment.',
      fields: {},
      values: { email: 'a@b.example' },
    });
  });
});

describe('in the tenant’s language', () => {
  it('shows our messages and field rules in German, the wait written out', () => {
    const { message } = describeError({ type: 'AstroActionError', ...tooManyAttempts(840) }, de);
    expect(message).toBe(
      'Zu viele Versuche. Bitte warten Sie 14 Minuten und versuchen Sie es erneut.',
    );
    const input = describeError(
      {
        type: 'AstroActionInputError',
        fields: { password: [textKey('auth.passwordShort', { min: 8 })] },
        issues: [],
      },
      de,
    );
    expect(input).toEqual({
      message: 'Bitte korrigieren Sie die markierten Felder.',
      fields: { password: ['Verwenden Sie mindestens 8 Zeichen.'] },
    });
  });

  it('passes the API’s own text through unchanged', () => {
    const { fields } = describeError(
      {
        type: 'AstroActionInputError',
        fields: { email: ['The email has already been taken.'] },
        issues: [],
      },
      de,
    );
    expect(fields).toEqual({ email: ['The email has already been taken.'] });
  });
});
