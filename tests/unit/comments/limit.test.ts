import { describe, expect, it } from 'vitest';
import { limitKey } from '../../../src/lib/comments/limit.ts';
import { memoryCommentLimiter } from '../../fixtures/comment-limiter.ts';

describe('memoryCommentLimiter', () => {
  it('lets `points` comments through per key and window, then says how long to wait', async () => {
    const consume = memoryCommentLimiter({ points: 2, duration: 600 });
    const a = limitKey('daily-planet', '203.0.113.5');
    expect(await consume(a)).toEqual({ ok: true });
    expect(await consume(a)).toEqual({ ok: true });
    const refused = await consume(a);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(590);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(600);
    }
    // Another tenant, or another address, has its own allowance.
    expect(await consume(limitKey('harbour-times', '203.0.113.5'))).toEqual({ ok: true });
    expect(await consume(limitKey('daily-planet', '203.0.113.6'))).toEqual({ ok: true });
  });
});

describe('limitKey', () => {
  it('counts the addresses of one IPv6 /64 as one visitor, as the sign-in limits do', async () => {
    const consume = memoryCommentLimiter({ points: 1, duration: 600 });
    expect(await consume(limitKey('daily-planet', '2001:db8:7:9::1'))).toEqual({ ok: true });
    expect((await consume(limitKey('daily-planet', '2001:db8:7:9::2'))).ok).toBe(false);
    expect(await consume(limitKey('daily-planet', '2001:db8:7:a::1'))).toEqual({ ok: true });
  });
});
