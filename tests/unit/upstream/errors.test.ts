import { describe, expect, it } from 'vitest';
import {
  errorFromStatus,
  ForbiddenError,
  isOutage,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamError,
  UpstreamServerError,
  ValidationError,
} from '../../../src/lib/upstream/errors.ts';

const base = {
  service: 'publishing' as const,
  operation: 'posts.get',
  method: 'GET',
  path: '/posts/x',
};

describe('errorFromStatus', () => {
  it.each([
    [401, UnauthenticatedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [422, ValidationError],
    [429, RateLimitedError],
    [500, UpstreamServerError],
    [502, UpstreamServerError],
    [503, UpstreamServerError],
    [400, UpstreamError],
  ])('%i → %o', (status, cls) => {
    const error = errorFromStatus({ ...base, status, body: { message: 'Nope.' } });
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(status);
    expect(error.service).toBe('publishing');
    expect(error.operation).toBe('posts.get');
    expect(error.upstreamMessage).toBe('Nope.');
  });

  it('keeps 422 field messages for forms', () => {
    const error = errorFromStatus({
      ...base,
      status: 422,
      body: {
        message: 'The email field is required.',
        errors: { email: ['The email field is required.'], name: 'x' },
      },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({
      email: ['The email field is required.'],
      name: ['x'],
    });
  });

  it('takes a 408 (the upstream gave up waiting; still one after the retries) for an outage', () => {
    const error = errorFromStatus({ ...base, status: 408, body: { message: 'Request Timeout.' } });
    // An outage: the cache serves its copy instead of the page failing with a 500.
    expect(isOutage(error)).toBe(true);
    expect(error.status).toBe(408);
  });

  it('carries Retry-After on 429', () => {
    const error = errorFromStatus({ ...base, status: 429, body: null, retryAfterSeconds: 17 });
    expect((error as RateLimitedError).retryAfterSeconds).toBe(17);
  });

  it('tolerates non-object bodies', () => {
    const error = errorFromStatus({ ...base, status: 500, body: '<html>oops</html>' });
    expect(error.message).toBe('[publishing] posts.get GET /posts/x: 500');
  });

  it('classifies outages (serve stale) apart from answers', () => {
    const ctx = { service: 'lodging' as const, operation: 'x' };
    expect(isOutage(new NetworkError('x', ctx))).toBe(true);
    expect(isOutage(new RateLimitedError('x', ctx, 1))).toBe(true);
    expect(isOutage(new NotFoundError('x', ctx))).toBe(false);
    expect(isOutage(new UnauthenticatedError('x', ctx))).toBe(false);
    expect(isOutage(new Error('x'))).toBe(false);
  });
});
