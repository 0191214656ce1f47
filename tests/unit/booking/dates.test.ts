import { afterEach, describe, expect, it } from 'vitest';
import {
  addDays,
  isIsoDate,
  latestCheckIn,
  nightsBetween,
  stayErrors,
  todayIn,
} from '../../../src/lib/booking/domain/dates.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { english } from '../../fixtures/english.ts';

const originalTz = process.env['TZ'];
afterEach(() => {
  if (originalTz === undefined) delete process.env['TZ'];
  else process.env['TZ'] = originalTz;
});

describe('date-only arithmetic', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
  ])('%s + %i day(s) = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it.each(['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', '', '2026-01-01T00:00:00Z'])(
    'rejects %j',
    (value) => {
      expect(isIsoDate(value)).toBe(false);
    },
  );

  // Whatever the server's or the browser's zone, a day across a DST change is still one night.
  describe.each([
    'Europe/London',
    'Europe/Zurich',
    'America/New_York',
    'Australia/Lord_Howe',
    'UTC',
  ])('with the process in %s', (zone) => {
    it('counts nights across the spring and autumn changes exactly', () => {
      process.env['TZ'] = zone;
      // Europe: 2026-03-29 and 2026-10-25; US: 2026-03-08 and 2026-11-01.
      expect(nightsBetween('2026-03-28', '2026-03-30')).toBe(2);
      expect(nightsBetween('2026-10-24', '2026-10-26')).toBe(2);
      expect(nightsBetween('2026-03-07', '2026-03-09')).toBe(2);
      expect(nightsBetween('2026-10-31', '2026-11-02')).toBe(2);
      expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
      expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
      expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
      expect(addDays('2026-11-01', 1)).toBe('2026-11-02');
    });
  });
});

describe("the tenant's today", () => {
  it.each([
    // London, the night of the spring change (01:00 UTC): still the 28th, then the 29th.
    ['Europe/London', '2026-03-28T23:59:00Z', '2026-03-28'],
    ['Europe/London', '2026-03-29T00:30:00Z', '2026-03-29'],
    // Summer time: 23:30 UTC is already tomorrow in London.
    ['Europe/London', '2026-10-24T23:30:00Z', '2026-10-25'],
    // After the autumn change 23:30 UTC is today again.
    ['Europe/London', '2026-10-25T23:30:00Z', '2026-10-25'],
    ['Europe/Zurich', '2026-03-28T23:30:00Z', '2026-03-29'],
    ['America/New_York', '2026-03-09T03:30:00Z', '2026-03-08'],
    ['Pacific/Kiritimati', '2026-06-30T10:00:00Z', '2026-07-01'],
  ])('%s at %s is %s', (zone, instant, expected) => {
    expect(todayIn(zone, new Date(instant))).toBe(expected);
  });
});

describe('stay rules', () => {
  const rules = { today: '2026-03-29', minNights: 2, maxNights: 14 };

  it('accepts a stay starting today across the DST change', () => {
    expect(english(stayErrors('2026-03-29', '2026-03-31', rules))).toEqual({});
  });

  it.each([
    ['', '', { checkIn: ['Choose a check-in date.'], checkOut: ['Choose a check-out date.'] }],
    ['2026-03-28', '2026-03-31', { checkIn: ['Check-in cannot be in the past.'] }],
    ['2026-04-02', '2026-04-02', { checkOut: ['Check-out must be after check-in.'] }],
    ['2026-04-02', '2026-04-01', { checkOut: ['Check-out must be after check-in.'] }],
    ['2026-04-02', '2026-04-03', { checkOut: ['The minimum stay is 2 nights.'] }],
    ['2026-04-02', '2026-04-17', { checkOut: ['The maximum stay is 14 nights.'] }],
    ['2026-02-30', '2026-04-03', { checkIn: ['Enter the check-in date as YYYY-MM-DD.'] }],
  ])('%j → %j gives %j', (checkIn, checkOut, expected) => {
    expect(english(stayErrors(checkIn, checkOut, rules))).toEqual(expected);
  });

  it('allows exactly the minimum and the maximum', () => {
    expect(english(stayErrors('2026-04-02', '2026-04-04', rules))).toEqual({});
    expect(english(stayErrors('2026-04-02', '2026-04-16', rules))).toEqual({});
  });

  it('refuses a check-in more than two years ahead (the year 9999 too), in every language', () => {
    const tooFar = { checkIn: ['Check-in can be at most two years from today.'] };
    expect(english(stayErrors('2028-03-29', '2028-03-31', rules))).toEqual({});
    expect(english(stayErrors('2028-03-30', '2028-04-01', rules))).toEqual(tooFar);
    expect(english(stayErrors('9999-01-01', '9999-01-03', rules))).toEqual(tooFar);
    // From 29 February, two years on is 28 February (no 29th that year).
    const leap = { ...rules, today: '2028-02-29' };
    expect(latestCheckIn(leap.today)).toBe('2030-02-28');
    expect(english(stayErrors('2030-03-01', '2030-03-03', leap))).toEqual(tooFar);
    for (const locale of ['de-CH', 'fr-CH']) {
      const { t } = createI18n(locale, 'UTC');
      expect(t('booking.error.checkInTooFar')).not.toBe(t('booking.error.checkInPast'));
      expect(t('booking.error.checkInTooFar')).not.toContain('booking.error');
    }
  });

  it('uses singular words for one night', () => {
    expect(english(stayErrors('2026-04-02', '2026-04-04', { ...rules, maxNights: 1 }))).toEqual({
      checkOut: ['The maximum stay is 1 night.'],
    });
  });
});
