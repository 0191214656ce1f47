import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import {
  TooManyAttemptsError,
  countAttempt,
  withinAttempts,
} from '../../../src/lib/auth/attempts.ts';
import { addressKey } from '../../../src/lib/request/visitor-limits.ts';

const limiter = (points: number) => new RateLimiterMemory({ points, duration: 60 });

const wrong = () => Promise.reject(new Error('wrong password'));
const always = () => true;

describe('failed logins', () => {
  it('allows attempts until the failures reach the limit, then refuses with the wait', async () => {
    const l = limiter(3);
    for (let i = 0; i < 3; i++) {
      await expect(withinAttempts(l, 'ip', wrong, always)).rejects.toThrow('wrong password');
    }
    const refused = await withinAttempts(l, 'ip', wrong, always).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyAttemptsError);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('gives the attempt back on success and on failures that are not wrong guesses', async () => {
    const l = limiter(1);
    for (let i = 0; i < 5; i++) {
      await expect(withinAttempts(l, 'ip', () => Promise.resolve('in'), always)).resolves.toBe(
        'in',
      );
      await expect(withinAttempts(l, 'ip', wrong, () => false)).rejects.toThrow('wrong password');
    }
    await expect(withinAttempts(l, 'ip', wrong, always)).rejects.toThrow('wrong password');
    await expect(withinAttempts(l, 'ip', wrong, always)).rejects.toBeInstanceOf(
      TooManyAttemptsError,
    );
  });

  it('reserves before the attempt runs: 40 parallel tries, at most the limit run', async () => {
    const l = limiter(10);
    let ran = 0;
    const slowWrong = async () => {
      ran += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('wrong password');
    };
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () => withinAttempts(l, 'ip', slowWrong, always)),
    );
    expect(ran).toBe(10);
    const refused = results.filter(
      (r) => r.status === 'rejected' && r.reason instanceof TooManyAttemptsError,
    );
    expect(refused).toHaveLength(30);
  });

  it('keeps addresses apart', async () => {
    const l = limiter(1);
    await withinAttempts(l, 'a', wrong, always).catch(() => undefined);
    await expect(withinAttempts(l, 'a', wrong, always)).rejects.toBeInstanceOf(
      TooManyAttemptsError,
    );
    await expect(withinAttempts(l, 'b', wrong, always)).rejects.toThrow('wrong password');
  });
});

describe('registrations', () => {
  it('counts every attempt and refuses the one over the limit', async () => {
    const l = limiter(2);
    await countAttempt(l, 'ip');
    await countAttempt(l, 'ip');
    await expect(countAttempt(l, 'ip')).rejects.toBeInstanceOf(TooManyAttemptsError);
  });

  it('an attempt the API never answered (an outage) gives its point back; an account or a refusal counts', async () => {
    const l = limiter(2);
    const outage = () => Promise.reject(new Error('API down'));
    const refusal = (error: unknown) => (error as Error).message === 'e-mail taken';
    const registration = { successCounts: true };
    for (let i = 0; i < 5; i++)
      await expect(withinAttempts(l, 'ip', outage, refusal, registration)).rejects.toThrow(
        'API down',
      );
    await expect(
      withinAttempts(
        l,
        'ip',
        () => Promise.reject(new Error('e-mail taken')),
        refusal,
        registration,
      ),
    ).rejects.toThrow('e-mail taken');
    await expect(
      withinAttempts(l, 'ip', () => Promise.resolve('made'), refusal, registration),
    ).resolves.toBe('made');
    await expect(
      withinAttempts(l, 'ip', () => Promise.resolve('made'), refusal, registration),
    ).rejects.toBeInstanceOf(TooManyAttemptsError);
  });

  it('passes on store errors (not a limit)', async () => {
    const broken = limiter(1);
    broken.consume = () => Promise.reject(new Error('store down'));
    await expect(countAttempt(broken, 'ip')).rejects.toThrow('store down');
  });
});

describe('whose attempts count together', () => {
  // Before: each IPv6 address had its own limit, and one connection owns a /64 of them.
  it('a guesser walking through the addresses of one IPv6 /64 meets the one limit', async () => {
    const l = limiter(3);
    const addresses = [
      '2001:db8:7:9::1',
      '2001:db8:7:9::2',
      '2001:db8:7:9:aaaa::3',
      '2001:0db8:0007:0009:ffff:1:2:3',
    ];
    for (const address of addresses.slice(0, 3)) {
      await expect(withinAttempts(l, addressKey(address), wrong, always)).rejects.toThrow(
        'wrong password',
      );
    }
    await expect(
      withinAttempts(l, addressKey(addresses[3]!), wrong, always),
    ).rejects.toBeInstanceOf(TooManyAttemptsError);
    // Another /64, and IPv4 addresses, keep their own limits.
    await expect(withinAttempts(l, addressKey('2001:db8:7:a::1'), wrong, always)).rejects.toThrow(
      'wrong password',
    );
    await expect(withinAttempts(l, addressKey('198.51.100.7'), wrong, always)).rejects.toThrow(
      'wrong password',
    );
  });

  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:DB8:0:0:1::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s counts as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
