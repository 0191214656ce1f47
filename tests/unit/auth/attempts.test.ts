import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import {
  TooManyAttemptsError,
  assertAttemptsLeft,
  countAttempt,
  recordFailure,
} from '../../../src/lib/auth/attempts.ts';

const limiter = (points: number) => new RateLimiterMemory({ points, duration: 60 });

describe('failed logins', () => {
  it('allows attempts until the failures reach the limit, then refuses with the wait', async () => {
    const l = limiter(3);
    for (let i = 0; i < 3; i++) {
      await expect(assertAttemptsLeft(l, 'ip')).resolves.toBeUndefined();
      await recordFailure(l, 'ip');
    }
    const refused = await assertAttemptsLeft(l, 'ip').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyAttemptsError);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('checking does not count, and failures beyond the limit do not throw', async () => {
    const l = limiter(1);
    await assertAttemptsLeft(l, 'ip');
    await assertAttemptsLeft(l, 'ip');
    await recordFailure(l, 'ip');
    await expect(recordFailure(l, 'ip')).resolves.toBeUndefined();
  });

  it('keeps addresses apart', async () => {
    const l = limiter(1);
    await recordFailure(l, 'a');
    await expect(assertAttemptsLeft(l, 'a')).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(assertAttemptsLeft(l, 'b')).resolves.toBeUndefined();
  });
});

describe('registrations', () => {
  it('counts every attempt and refuses the one over the limit', async () => {
    const l = limiter(2);
    await countAttempt(l, 'ip');
    await countAttempt(l, 'ip');
    await expect(countAttempt(l, 'ip')).rejects.toBeInstanceOf(TooManyAttemptsError);
  });

  it('passes on store errors (not a limit)', async () => {
    const broken = limiter(1);
    broken.consume = () => Promise.reject(new Error('store down'));
    await expect(countAttempt(broken, 'ip')).rejects.toThrow('store down');
  });
});
