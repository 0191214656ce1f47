import type { Tenant } from '../tenants/schema.ts';
import { dateTimeFormat, numberFormat, remembered } from './intl-cache.ts';

/**
 * Dates as shown, per upstream value, locale and zone: a page shows the same few dates on every
 * render (each card's, each comment's), and reading and formatting one costs more than a lookup.
 */
const shown = new Map<string, string>();
const MAX_SHOWN = 5000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** `2026-11-22 10:00:00` or `2026-11-22T10:00:00`: a timestamp that names no offset. */
const NO_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * An upstream date value read as the site shows it: a date-only value is a calendar day (kept at
 * midnight UTC and always formatted in UTC); a timestamp is an instant, UTC when it names no offset
 * (docs/api-assumptions.md, "Dates"). `null` for a missing or unreadable value.
 */
export function readDate(
  value: string | Date | null | undefined,
): { date: Date; calendar: boolean } | null {
  if (!value) return null;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : { date: value, calendar: false };
  const text = value.trim();
  const calendar = DATE_ONLY.test(text);
  const iso = calendar
    ? `${text}T00:00:00Z`
    : NO_OFFSET.test(text)
      ? `${text.replace(' ', 'T')}Z`
      : text;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : { date, calendar };
}

type Zoned = Pick<Tenant, 'locale' | 'timeZone'>;

/** ISO 8601 with its offset (`Z`) for machines (JSON-LD): a time sent without one is UTC, as pages read it. */
export function isoInstant(value: string | null | undefined): string | undefined {
  return readDate(value)?.date.toISOString();
}

/**
 * A date in the tenant's locale: a timestamp on the tenant's clock, a date-only value as the day it
 * names; '' for a missing or invalid value.
 */
export function formatDate(
  value: string | Date | null | undefined,
  tenant: Zoned,
  style: 'long' | 'medium' | 'short' = 'long',
): string {
  const format = () => {
    const read = readDate(value);
    if (!read) return '';
    const timeZone = read.calendar ? 'UTC' : tenant.timeZone;
    return dateTimeFormat(tenant.locale, { dateStyle: style, timeZone }).format(read.date);
  };
  if (typeof value !== 'string') return format();
  const key = `d|${style}|${tenant.locale}|${tenant.timeZone}|${value}`;
  return remembered(shown, MAX_SHOWN, key, format);
}

/** Date and time in the tenant's zone, e.g. for comments; a date-only value shows its day alone. */
export function formatDateTime(value: string | null | undefined, tenant: Zoned): string {
  if (!value) return '';
  return remembered(shown, MAX_SHOWN, `dt|${tenant.locale}|${tenant.timeZone}|${value}`, () => {
    const read = readDate(value);
    if (!read) return '';
    if (read.calendar) return formatDate(value, tenant, 'medium');
    const options = { dateStyle: 'medium', timeStyle: 'short', timeZone: tenant.timeZone } as const;
    return dateTimeFormat(tenant.locale, options).format(read.date);
  });
}

/** A decimal string price in its currency, formatted for the locale: `("9.90","EUR","de-CH")` → `EUR 9.90`. */
export function formatPrice(amount: string | number, currency: string, locale: string): string {
  const value = typeof amount === 'number' ? amount : Number.parseFloat(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return numberFormat(locale, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone; a date-only value is its own day. */
export function isoDateInZone(value: string | Date, timeZone: string): string {
  if (typeof value === 'string' && DATE_ONLY.test(value.trim())) return value.trim();
  const date = readDate(value)?.date ?? new Date(Number.NaN);
  return dateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

/** A date-only `YYYY-MM-DD` (a stay's check-in) in the locale, on its own calendar day: "Fri, 12 March 2027". */
export function stayDate(date: string, locale: string): string {
  const instant = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(instant.getTime())) return date;
  try {
    return dateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(instant);
  } catch {
    return date;
  }
}

/**
 * This year on the tenant's clock, in its locale's digits (the footer's copyright line). Formatting
 * in a time zone is among the dearer `Intl` calls and the answer changes once a year: it is worked
 * out once a minute per locale and zone (a year turns at a whole minute in every zone).
 */
export function currentYear(tenant: Zoned, now = new Date()): string {
  const minute = Math.floor(now.getTime() / 60_000);
  return remembered(shown, MAX_SHOWN, `y|${tenant.locale}|${tenant.timeZone}|${minute}`, () =>
    dateTimeFormat(tenant.locale, { year: 'numeric', timeZone: tenant.timeZone }).format(now),
  );
}
