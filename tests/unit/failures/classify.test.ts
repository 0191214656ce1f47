import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import {
  classify,
  isSignedOut,
  isTemporary,
  KnownFailure,
} from '../../../src/lib/failures/classify.ts';
import type { Failure } from '../../../src/lib/failures/classify.ts';
import { fieldErrorsOf, issuesSummary } from '../../../src/lib/failures/fields.ts';
import {
  ForbiddenError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
  UpstreamError,
  UpstreamServerError,
  ValidationError,
} from '../../../src/lib/upstream/errors.ts';

const ctx = { service: 'publishing' as const, operation: 'test' };
const zodError = z
  .strictObject({ email: z.email({ error: 'Enter an e-mail.' }), age: z.number() })
  .safeParse({ email: 'x', age: 'old', extra: 1 }).error;

describe('classify', () => {
  it.each<[string, unknown, Failure]>([
    ['404', new NotFoundError('404', { ...ctx, status: 404 }), { kind: 'not-found' }],
    ['500', new UpstreamServerError('500', { ...ctx, status: 500 }), { kind: 'outage' }],
    ['timeout', new TimeoutError('t', ctx), { kind: 'outage' }],
    ['network', new NetworkError('n', ctx), { kind: 'outage' }],
    ['garbage', new InvalidResponseError('g', ctx, 'issues'), { kind: 'outage' }],
    [
      'upstream 429',
      new RateLimitedError('429', { ...ctx, status: 429 }, 42),
      { kind: 'busy', retryAfterSeconds: 42 },
    ],
    [
      'local budget refusal, fraction rounded up',
      new RateLimitedError('budget', { ...ctx, status: 429 }, 2.1, true),
      { kind: 'busy', retryAfterSeconds: 3 },
    ],
    [
      'Retry-After: 0 floored at 1 s',
      new RateLimitedError('429', { ...ctx, status: 429 }, 0),
      { kind: 'busy', retryAfterSeconds: 1 },
    ],
    [
      '422 with its fields and message',
      new ValidationError(
        '422',
        { ...ctx, status: 422, upstreamMessage: 'Taken.' },
        { email: ['Taken.'] },
      ),
      { kind: 'invalid', fields: { email: ['Taken.'] }, message: 'Taken.' },
    ],
    [
      'a zod error, in the same field shape',
      zodError,
      {
        kind: 'invalid',
        fields: {
          email: ['Enter an e-mail.'],
          age: ['Invalid input: expected number, received string'],
          form: ['Unknown key "extra"'],
        },
      },
    ],
    ['401', new UnauthenticatedError('401', ctx), { kind: 'refused', status: 401 }],
    ['403', new ForbiddenError('403', ctx), { kind: 'refused', status: 403 }],
    ['another 4xx', new UpstreamError('409', { ...ctx, status: 409 }), { kind: 'unexpected' }],
    ['a bug', new TypeError('x is undefined'), { kind: 'unexpected' }],
    ['a string', 'boom', { kind: 'unexpected' }],
    [
      'our own failure',
      new KnownFailure('no', { kind: 'outage', retryAfterSeconds: 60 }),
      { kind: 'outage', retryAfterSeconds: 60 },
    ],
    [
      "booking's own 404",
      new BookingFailure(404, { code: 'not_found', message: 'Gone.' }),
      { kind: 'not-found' },
    ],
    [
      "booking's own outage keeps its Retry-After",
      new BookingFailure(503, { code: 'unavailable', message: 'Down.', retryAfter: 10 }),
      { kind: 'outage', retryAfterSeconds: 10 },
    ],
  ])('%s', (_name, error, failure) => {
    expect(classify(error)).toEqual(failure);
  });

  it.each<[Failure, boolean]>([
    [{ kind: 'outage' }, true],
    [{ kind: 'busy', retryAfterSeconds: 1 }, true],
    [{ kind: 'not-found' }, false],
    [{ kind: 'invalid', fields: {} }, false],
    [{ kind: 'refused', status: 401 }, false],
    [{ kind: 'unexpected' }, false],
  ])('isTemporary(%j) is %s', (failure, temporary) => {
    expect(isTemporary(failure)).toBe(temporary);
  });
});

describe('isSignedOut', () => {
  it.each<[Failure, boolean]>([
    [{ kind: 'refused', status: 401 }, true],
    [{ kind: 'refused', status: 403 }, false],
    [{ kind: 'outage' }, false],
  ])('%j → %s', (failure, signedOut) => {
    expect(isSignedOut(failure)).toBe(signedOut);
  });
});

describe('field errors', () => {
  it('keys issues by their first path segment, the rest under form', () => {
    const nested = z.object({ guest: z.object({ name: z.string() }) }).safeParse({ guest: {} });
    expect(fieldErrorsOf(nested.error?.issues ?? [])).toEqual({
      guest: ['Invalid input: expected string, received undefined'],
    });
    const root = z.string({ error: 'Text please.' }).safeParse(1);
    expect(fieldErrorsOf(root.error?.issues ?? [])).toEqual({ form: ['Text please.'] });
  });

  it('summarises issues for logs: path and message, at most five', () => {
    const many = z.array(z.number()).safeParse(['a', 'b', 'c', 'd', 'e', 'f']);
    const summary = issuesSummary(many.error?.issues ?? []);
    expect(summary.split('; ')).toHaveLength(5);
    expect(summary).toMatch(/^0: Invalid input/);
  });
});
