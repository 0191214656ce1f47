import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  authFailure,
  mapFieldErrors,
  tooManyAttempts,
} from '../../../src/lib/auth/failures.ts';
import {
  ForbiddenError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
  UpstreamServerError,
  ValidationError,
} from '../../../src/lib/upstream/errors.ts';
import { english } from '../../fixtures/english.ts';

const ctx = { service: 'publishing' as const, operation: 'auth.login' };
const FIELDS = ['name', 'email', 'password'] as const;

describe('authFailure', () => {
  it('puts the API field messages on the form fields', () => {
    const error = new ValidationError(
      '422',
      { ...ctx, status: 422, upstreamMessage: 'The email has already been taken.' },
      { email: ['The email has already been taken.'] },
    );
    expect(english(authFailure(error, FIELDS))).toEqual({
      code: 'BAD_REQUEST',
      message: english(MESSAGES.fields),
      fields: { email: ['The email has already been taken.'] },
    });
  });

  it('uses the form summary the caller names', () => {
    const error = new ValidationError('422', { ...ctx, status: 422 }, { email: ['Nope.'] });
    expect(english(authFailure(error, FIELDS, english(MESSAGES.loginRefused))?.message)).toBe(
      english(MESSAGES.loginRefused),
    );
  });

  it('sends messages of fields the form does not have to the summary', () => {
    const error = new ValidationError(
      '422',
      { ...ctx, status: 422 },
      { email: ['Taken.'], captcha: ['Solve the puzzle.'] },
    );
    expect(english(authFailure(error, FIELDS))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Solve the puzzle.',
      fields: { email: ['Taken.'] },
    });
  });

  it('falls back to the upstream message when a 422 names no field', () => {
    const error = new ValidationError(
      '422',
      { ...ctx, status: 422, upstreamMessage: 'Registrations are closed.' },
      {},
    );
    expect(english(authFailure(error, FIELDS)?.message)).toBe('Registrations are closed.');
  });

  it.each([
    ['server error', new UpstreamServerError('500', { ...ctx, status: 500 })],
    ['timeout', new TimeoutError('timeout', ctx)],
    ['network', new NetworkError('refused', ctx)],
    ['garbage', new InvalidResponseError('bad', ctx, 'issues')],
  ])('asks to try again when the API is down (%s)', (_name, error) => {
    expect(english(authFailure(error, FIELDS))).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: english(MESSAGES.unavailable),
      fields: {},
    });
  });

  it("turns the API's 429 (all readers together) into a busy message with the wait", () => {
    const error = new RateLimitedError('429', { ...ctx, status: 429 }, 42);
    expect(english(authFailure(error, FIELDS))).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: 'Many people are signing in right now. Please wait 42 seconds and try again.',
      fields: {},
    });
  });

  it('answers a 401 during sign-in with a retry message', () => {
    expect(english(authFailure(new UnauthenticatedError('401', ctx), FIELDS)?.code)).toBe(
      'UNAUTHORIZED',
    );
  });

  it.each([
    ['a bug', new TypeError('x is undefined')],
    ['a 403', new ForbiddenError('403', ctx)],
    ['a string', 'boom'],
  ])('returns null for %s (logged, shown as a generic message)', (_name, error) => {
    expect(english(authFailure(error, FIELDS))).toBeNull();
  });
});

describe('mapFieldErrors', () => {
  it('drops empty messages and fields', () => {
    expect(mapFieldErrors({ email: [' ', 'Taken. '], name: [] }, FIELDS)).toEqual({
      fields: { email: ['Taken.'] },
      other: [],
    });
  });
});

describe('tooManyAttempts', () => {
  it('says how long to wait, in words', () => {
    expect(english(tooManyAttempts(840).message)).toBe(
      'Too many attempts. Please wait 14 minutes and try again.',
    );
  });
});
