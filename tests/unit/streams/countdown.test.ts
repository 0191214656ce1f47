import { describe, expect, it } from 'vitest';
import { formatRemaining, remaining } from '../../../src/lib/streams/countdown.ts';

const start = Date.parse('2026-11-23T18:00:00Z');

describe('remaining', () => {
  it('is null once the start has come', () => {
    expect(remaining(start, start)).toBeNull();
    expect(remaining(start, start + 5000)).toBeNull();
  });

  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = start - (2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000;
    expect(remaining(start, now)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
  });
});

describe('formatRemaining', () => {
  it.each([
    [{ days: 2, hours: 3, minutes: 4, seconds: 5 }, 'en', /^2d 3h$/],
    [{ days: 0, hours: 1, minutes: 30, seconds: 5 }, 'de-CH', /^1\s?(h|Std\.?),? 30 Min\.?$/],
    [{ days: 0, hours: 0, minutes: 4, seconds: 5 }, 'en', /^4m 5s$/],
  ])('%j in %s', (left, locale, expected) => {
    expect(formatRemaining(left, locale).replace(/\u00a0/g, ' ')).toMatch(expected);
  });
});
