import { describe, expect, it } from 'vitest';
import { currentYear } from '../../../src/lib/i18n/format.ts';

describe('the current year on the tenant clock', () => {
  const auckland = { locale: 'en-NZ', timeZone: 'Pacific/Auckland' };
  const london = { locale: 'en-GB', timeZone: 'Europe/London' };

  it('is already next year in Auckland while London is still in the old one', () => {
    const newYearInAuckland = new Date('2026-12-31T12:30:00Z');
    expect(currentYear(auckland, newYearInAuckland)).toBe('2027');
    expect(currentYear(london, newYearInAuckland)).toBe('2026');
  });

  it('turns over within a minute of midnight, remembered or not', () => {
    expect(currentYear(london, new Date('2026-12-31T23:59:30Z'))).toBe('2026');
    expect(currentYear(london, new Date('2027-01-01T00:00:31Z'))).toBe('2027');
    // A clock set back (a test, a corrected server) is not answered from the later reading.
    expect(currentYear(london, new Date('2026-06-01T00:00:00Z'))).toBe('2026');
  });

  it('writes the year in the locale digits', () => {
    expect(currentYear({ locale: 'ar-EG', timeZone: 'Africa/Cairo' }, new Date('2026-05-01'))).toBe(
      '٢٠٢٦',
    );
  });
});
