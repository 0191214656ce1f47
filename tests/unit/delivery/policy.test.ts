import { describe, expect, it } from 'vitest';
import { failureAnswer, sharedCache, temporaryMessage } from '../../../src/lib/delivery/policy.ts';
import { readTextKey } from '../../../src/lib/i18n/text-key.ts';
import { KnownFailure, type Failure } from '../../../src/lib/failures/classify.ts';

describe('the failure answer of feeds and files', () => {
  const failed = (failure: Failure) => new KnownFailure('failed', failure);

  it('is a 404 no cache keeps for a missing resource', async () => {
    const answer = failureAnswer(failed({ kind: 'not-found' }));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.text()).toBe('Not found');
  });

  it('is a 503 with the wait the failure gave, or the default', () => {
    const busy = failureAnswer(failed({ kind: 'busy', retryAfterSeconds: 7 }));
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('7');
    expect(failureAnswer(failed({ kind: 'outage' })).headers.get('retry-after')).toBe('30');
  });

  it('throws bugs and refusals on (the 500 page)', () => {
    const bug = new URIError('URI malformed');
    expect(() => failureAnswer(bug)).toThrow(bug);
    expect(() => failureAnswer(failed({ kind: 'refused', status: 403 }))).toThrow('failed');
  });
});

describe('shared cache lifetimes', () => {
  it('let browsers ask again and shared caches keep a copy through errors', () => {
    expect(sharedCache(300, 3600)).toBe(
      'public, max-age=0, s-maxage=300, stale-while-revalidate=3600, stale-if-error=86400',
    );
  });
});

describe('what a form says about a temporary failure', () => {
  it('gives the wait when busy, the area’s outage text when down, nothing otherwise', () => {
    const busy = temporaryMessage({ kind: 'busy', retryAfterSeconds: 12 }, 'comments.error');
    expect(busy?.status).toBe(429);
    expect(readTextKey(busy?.message ?? '')).toEqual({
      key: 'comments.error.busy',
      values: { wait: 12 },
    });
    const down = temporaryMessage({ kind: 'outage' }, 'auth');
    expect(down?.status).toBe(503);
    expect(readTextKey(down?.message ?? '')?.key).toBe('auth.unavailable');
    expect(temporaryMessage({ kind: 'not-found' }, 'auth')).toBeNull();
  });
});
