import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatPrice,
  isoDateInZone,
} from '../../../src/lib/i18n/format.ts';
import { dateTimeFormat, numberFormat, pluralRules } from '../../../src/lib/i18n/intl-cache.ts';
import { formatWait } from '../../../src/lib/failures/wait.ts';
import { clockTime } from '../../../src/lib/reading/front-page.ts';
import { zonedDateTime } from '../../../src/lib/streams/status.ts';
import { parseTenantsText } from '../../../src/lib/tenants/schema.ts';

const { tenants } = parseTenantsText(
  readFileSync(new URL('../../../tenants.json', import.meta.url), 'utf8'),
);
// Every locale and zone the tenants use, plus the other dictionaries' languages and a half-hour zone.
const zones = [
  ...new Map(
    [
      ...tenants.map((t) => ({ locale: t.locale, timeZone: t.timeZone })),
      { locale: 'fr-FR', timeZone: 'Europe/Paris' },
      { locale: 'de-DE', timeZone: 'Asia/Kolkata' },
    ].map((z) => [`${z.locale}|${z.timeZone}`, z]),
  ).values(),
];
// Both sides of a DST change in Europe and in the US, a leap day and a date-only value.
const instants = [
  '2026-03-29T00:30:00Z',
  '2026-03-29T01:30:00Z',
  '2026-11-01T05:30:00Z',
  '2026-11-01T06:30:00Z',
  '2028-02-29T23:59:00Z',
  '2026-11-22 10:00:00',
];
const fresh = (locale: string, options: Intl.DateTimeFormatOptions, value: string) =>
  new Intl.DateTimeFormat(locale, options).format(
    new Date(value.replace(' ', 'T') + (value.includes('Z') ? '' : 'Z')),
  );

describe.each(zones)('cached formatters for $locale in $timeZone', (tenant) => {
  it.each(instants)('formats %s as a fresh formatter does', (value) => {
    for (const dateStyle of ['long', 'medium', 'short'] as const) {
      expect(formatDate(value, tenant, dateStyle)).toBe(
        fresh(tenant.locale, { dateStyle, timeZone: tenant.timeZone }, value),
      );
    }
    expect(formatDateTime(value, tenant)).toBe(
      fresh(
        tenant.locale,
        { dateStyle: 'medium', timeStyle: 'short', timeZone: tenant.timeZone },
        value,
      ),
    );
    expect(isoDateInZone(value, tenant.timeZone)).toBe(
      fresh(
        'en-CA',
        { timeZone: tenant.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' },
        value,
      ),
    );
    if (value.endsWith('Z')) {
      expect(clockTime(value, tenant)).toBe(
        fresh(
          tenant.locale,
          { hour: 'numeric', minute: '2-digit', timeZone: tenant.timeZone, timeZoneName: 'short' },
          value,
        ),
      );
      const parts = (options: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat(tenant.locale, {
          timeZone: tenant.timeZone,
          ...options,
        }).formatToParts(new Date(value));
      const zone = parts({ timeZoneName: 'short' }).find((p) => p.type === 'timeZoneName')?.value;
      const dateTime = parts({ dateStyle: 'medium', timeStyle: 'short' })
        .map((p) => p.value)
        .join('');
      expect(zonedDateTime(new Date(value), tenant)).toBe(`${dateTime} ${zone}`);
    }
  });

  it('formats prices and waits as a fresh formatter does', () => {
    for (const currency of ['EUR', 'CHF', 'USD', 'GBP']) {
      expect(formatPrice('1234.5', currency, tenant.locale)).toBe(
        new Intl.NumberFormat(tenant.locale, { style: 'currency', currency }).format(1234.5),
      );
    }
    // 30 s in seconds, 600 s in whole minutes.
    for (const [seconds, unit, value] of [
      [30, 'second', 30],
      [600, 'minute', 10],
    ] as const) {
      expect(formatWait(seconds, tenant.locale)).toBe(
        new Intl.NumberFormat(tenant.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(
          value,
        ),
      );
    }
  });

  it('chooses plural forms and writes numbers as fresh rules do', () => {
    const fresh = new Intl.PluralRules(tenant.locale);
    for (const count of [0, 1, 2, 3, 5, 11, 21, 1.5]) {
      expect(pluralRules(tenant.locale).select(count)).toBe(fresh.select(count));
    }
    expect(numberFormat(tenant.locale).format(1234567.5)).toBe(
      new Intl.NumberFormat(tenant.locale).format(1234567.5),
    );
  });

  it('builds each formatter once and shares it', () => {
    const options = { dateStyle: 'medium', timeStyle: 'short', timeZone: tenant.timeZone } as const;
    expect(dateTimeFormat(tenant.locale, options)).toBe(
      dateTimeFormat(tenant.locale, { ...options }),
    );
    expect(numberFormat(tenant.locale)).toBe(numberFormat(tenant.locale));
    expect(pluralRules(tenant.locale)).toBe(pluralRules(tenant.locale));
    // Another zone or locale is another formatter.
    expect(dateTimeFormat(tenant.locale, { ...options, timeZone: 'UTC' })).not.toBe(
      dateTimeFormat(tenant.locale, options),
    );
  });
});

it('still refuses a zone that does not exist, and does not remember it', () => {
  expect(() => dateTimeFormat('en', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  expect(() => dateTimeFormat('en', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  // A bad currency falls back to the plain text, as before.
  expect(formatPrice('9.9', 'NOPE!', 'en-GB')).toBe('9.90 NOPE!');
});

it('a date shown again is remembered per locale and zone: each reader still sees their own day', () => {
  const late = '2026-11-22T23:30:00Z';
  const auckland = { locale: 'en-NZ', timeZone: 'Pacific/Auckland' };
  const london = { locale: 'en-GB', timeZone: 'Europe/London' };
  const berlin = { locale: 'de-DE', timeZone: 'Europe/London' };
  for (let round = 0; round < 2; round++) {
    expect(formatDate(late, auckland)).toBe('23 November 2026');
    expect(formatDate(late, london)).toBe('22 November 2026');
    expect(formatDate(late, berlin)).toBe('22. November 2026');
    expect(formatDate(late, london, 'short')).toBe('22/11/2026');
    expect(formatDateTime(late, auckland)).toBe(
      fresh(
        'en-NZ',
        { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Pacific/Auckland' },
        late,
      ),
    );
    expect(formatDate('not a date', london)).toBe('');
  }
});
