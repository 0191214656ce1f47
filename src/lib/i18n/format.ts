import type { Tenant } from '../tenants/schema.ts';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(
  locale: string,
  timeZone: string,
  style: 'long' | 'medium' | 'short',
): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone });
    dateFormats.set(key, format);
  }
  return format;
}

/** A timestamp as a date in the tenant's locale and time zone; '' for a missing or invalid value. */
export function formatDate(
  value: string | Date | null | undefined,
  tenant: Pick<Tenant, 'locale' | 'timeZone'>,
  style: 'long' | 'medium' | 'short' = 'long',
): string {
  if (!value) return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat(tenant.locale, tenant.timeZone, style).format(date);
}

/** Date and time in the tenant's zone, e.g. for stream start times. */
export function formatDateTime(
  value: string | null | undefined,
  tenant: Pick<Tenant, 'locale' | 'timeZone'>,
): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(tenant.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: tenant.timeZone,
  }).format(date);
}

/** A decimal string price in its currency, formatted for the locale: `("9.90","EUR","de-CH")` → `EUR 9.90`. */
export function formatPrice(amount: string | number, currency: string, locale: string): string {
  const value = typeof amount === 'number' ? amount : Number.parseFloat(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function isoDateInZone(value: string | Date, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat('en-CA', {
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
    return new Intl.DateTimeFormat(locale, {
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
