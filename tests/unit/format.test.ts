import { describe, expect, it } from 'vitest';
import { formatDate, formatPrice } from '../../src/lib/i18n/format.ts';

describe('formatting in the tenant locale and time zone', () => {
  it.each([
    // 23:30 UTC is already the next day in Zurich and still the same day in New York.
    ['2026-03-28T23:30:00Z', 'de-CH', 'Europe/Zurich', '29. März 2026'],
    ['2026-03-28T23:30:00Z', 'en-US', 'America/New_York', 'March 28, 2026'],
    ['2026-03-28T23:30:00Z', 'en-GB', 'Europe/London', '28 March 2026'],
  ])('formats %s for %s in %s', (iso, locale, timeZone, expected) => {
    expect(formatDate(iso, { locale, timeZone })).toBe(expected);
  });

  it('returns an empty string for missing or invalid dates', () => {
    expect(formatDate(null, { locale: 'en', timeZone: 'UTC' })).toBe('');
    expect(formatDate('not a date', { locale: 'en', timeZone: 'UTC' })).toBe('');
  });

  it.each([
    ['9.90', 'EUR', 'de-DE', '9,90 €'],
    ['120.00', 'CHF', 'de-CH', 'CHF 120.00'],
    ['1499.5', 'USD', 'en-US', '$1,499.50'],
    ['7', 'GBP', 'en-GB', '£7.00'],
  ])('formats price %s %s for %s', (amount, currency, locale, expected) => {
    expect(formatPrice(amount, currency, locale).replace(/\u00a0|\u202f/g, ' ')).toBe(
      expected.replace(/\u00a0/g, ' '),
    );
  });

  it('falls back for an unknown currency or a non-numeric amount', () => {
    expect(formatPrice('abc', 'EUR', 'en')).toBe('abc EUR');
  });
});
