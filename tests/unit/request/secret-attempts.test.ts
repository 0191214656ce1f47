import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  checkSecret,
  GUESSES_PER_WINDOW,
  sameSecret,
} from '../../../src/lib/request/secret-attempts.ts';

describe('bearer secrets', () => {
  it('reads only a Bearer token', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
  });

  it('compares whole secrets, whatever their lengths', () => {
    expect(sameSecret('a'.repeat(40), 'a'.repeat(40))).toBe(true);
    expect(sameSecret('a'.repeat(39), 'a'.repeat(40))).toBe(false);
    expect(sameSecret('a'.repeat(41), 'a'.repeat(40))).toBe(false);
    expect(sameSecret('', 'a')).toBe(false);
  });

  it('counts wrong guesses per scope, and only wrong ones', async () => {
    const expected = 'x'.repeat(40);
    const check = (given: string, scope = 'test:guesses') =>
      checkSecret({ given, expected, scope, redisUrl: undefined });
    for (let i = 0; i < GUESSES_PER_WINDOW; i += 1) {
      expect(await check(expected)).toBe('right');
      expect(await check(`wrong-${i}`)).toBe('wrong');
    }
    expect(await check(expected)).toEqual({ retryAfterSeconds: expect.any(Number) as number });
    expect(await check(expected, 'test:other-scope')).toBe('right');
  });
});
