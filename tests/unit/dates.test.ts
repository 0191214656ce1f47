import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, isoDateInZone, readDate } from '../../src/lib/i18n/format.ts';
import { shownUpdate } from '../../src/lib/reading/article.ts';
import { streamTiming } from '../../src/lib/streams/status.ts';
import { createI18n } from '../../src/lib/i18n/index.ts';

const newYork = { locale: 'en-US', timeZone: 'America/New_York' };
const zurich = { locale: 'de-CH', timeZone: 'Europe/Zurich' };
const auckland = { locale: 'en-NZ', timeZone: 'Pacific/Auckland' };

describe('date-only values are calendar days, never moved by a time zone', () => {
  it.each([
    [newYork, 'November 22, 2026'],
    [zurich, '22. November 2026'],
    [auckland, '22 November 2026'],
  ])('an edition dated 2026-11-22 shows that day in %o', (tenant, expected) => {
    expect(formatDate('2026-11-22', tenant)).toBe(expected);
    expect(formatDateTime('2026-11-22', tenant)).toContain('22');
    expect(isoDateInZone('2026-11-22', tenant.timeZone)).toBe('2026-11-22');
  });
});

describe('timestamps are shown on the tenant clock', () => {
  it.each([
    // 03:30 UTC on the 22nd is still the 21st in New York, the 22nd in Zurich and Auckland.
    ['2026-11-22T03:30:00+00:00', newYork, 'November 21, 2026'],
    ['2026-11-22T03:30:00+00:00', zurich, '22. November 2026'],
    ['2026-11-22T03:30:00+00:00', auckland, '22 November 2026'],
    // 11:30 UTC is already the 23rd in Auckland (UTC+13 in summer).
    ['2026-11-22T11:30:00Z', auckland, '23 November 2026'],
    // An offset in the value is honoured: 23:00 in New York is 04:00 UTC the next day.
    ['2026-11-21T23:00:00-05:00', zurich, '22. November 2026'],
    ['2026-11-21T23:00:00-05:00', newYork, 'November 21, 2026'],
    // Laravel's microsecond form.
    ['2026-11-22T03:30:00.000000Z', newYork, 'November 21, 2026'],
  ])('%s in %o', (value, tenant, expected) => {
    expect(formatDate(value, tenant)).toBe(expected);
  });

  it('reads a timestamp without an offset as UTC, whatever the server zone', () => {
    expect(readDate('2026-11-22 03:30:00')?.date.toISOString()).toBe('2026-11-22T03:30:00.000Z');
    expect(formatDate('2026-11-22 03:30:00', newYork)).toBe('November 21, 2026');
  });

  it('shows a comment time in the tenant zone', () => {
    expect(formatDateTime('2026-11-22T11:30:00Z', auckland)).toMatch(/23 Nov 2026.*12:30/);
  });

  it('stream times with no offset are UTC instants on the tenant clock', () => {
    const timing = streamTiming(
      { is_live: false, status: 'scheduled', scheduled_at: '2026-11-22 18:00:00' },
      zurich,
      createI18n('en', 'UTC').t,
    );
    expect(timing?.iso).toBe('2026-11-22T18:00:00.000Z');
    expect(timing?.text).toContain('19:00');
  });

  it('an update on the same calendar day as a date-only publication is not shown', () => {
    expect(
      shownUpdate({ published_at: '2026-11-22', updated_at: '2026-11-22T20:00:00Z' }, 'UTC'),
    ).toBeNull();
  });
});
