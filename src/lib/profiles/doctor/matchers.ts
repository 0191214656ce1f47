import { isRecord } from '../../content/records.ts';
import { z } from 'zod';

/**
 * What a value is, whatever its field is called: the doctor's evidence for where a needed field
 * sits. Each is a plain test of one value (or of all values of one place across records).
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:$|[T ]\d{2}:\d{2})/;

/** An ISO 8601 date or timestamp that is a real day. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** An ISO date whose day lies within `from`…`to` (both YYYY-MM-DD, inclusive). */
export function isDateIn(value: unknown, from: string, to: string): boolean {
  if (!isIsoDate(value)) return false;
  const day = value.slice(0, 10);
  return day >= from && day <= to;
}

let currencies: ReadonlySet<string> | undefined;

/** An ISO 4217 currency code the runtime knows (`EUR`, `CHF`; not `eur`, not `ABC`). */
export function isCurrencyCode(value: unknown): value is string {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return typeof value === 'string' && currencies.has(value);
}

const email = z.email();

export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && email.safeParse(value).success;
}

/** A whole number ≥ 0 (a number or its digits), no larger than `max` when given. */
export function isCount(value: unknown, max?: number): boolean {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && (max === undefined || n <= max);
}

/** The amount of a price: a number, or a decimal string (`"240.00"`); undefined otherwise. */
export function moneyValue(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+(\.\d{1,4})?$/.test(value)) return Number(value);
  return undefined;
}

/** A price that is `nights` × `nightly` (to the cent). */
export function isStayTotal(value: unknown, nights: number, nightly: unknown): boolean {
  const total = moneyValue(value);
  const rate = moneyValue(nightly);
  return total !== undefined && rate !== undefined && Math.abs(total - nights * rate) < 0.005;
}

/** An identifier: a uuid, a whole number, or a short token without spaces. */
export function isIdentifier(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'string' && /^[\w-]{1,64}$/.test(value);
}

/** Whether `value` (an id) equals one of `ids` (as text: `7` and `"7"` are one id). */
export function joins(value: unknown, ids: ReadonlySet<string>): boolean {
  return (typeof value === 'string' || typeof value === 'number') && ids.has(String(value));
}

/** A URL slug: lower-case words joined by hyphens (or one word). */
export function isSlug(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(value);
}

export function isUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}

export function isHtml(value: unknown): value is string {
  return typeof value === 'string' && /<[a-z][\s\S]*>/i.test(value);
}

/** Words for people to read: text that is no date, URL, address, code or markup. */
export function isText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.trim() !== '' &&
    !isIsoDate(value) &&
    !isUrl(value) &&
    !isEmail(value) &&
    !isHtml(value) &&
    !/^[\d.,-]+$/.test(value)
  );
}

/** A status: all values short lower-case words, few distinct ones (`held`, `confirmed`, `void`). */
export function isStatusSet(values: readonly unknown[], most = 6): boolean {
  if (values.length === 0) return false;
  const distinct = new Set(values);
  return (
    values.every((v) => typeof v === 'string' && /^[a-z][a-z_-]{1,23}$/.test(v)) &&
    distinct.size <= Math.min(most, Math.max(1, Math.ceil(values.length / 2) + 1))
  );
}

/** Every list of records in `body` at any depth, with its dot path (`""` for the body), longest first. */
export function recordLists(body: unknown, depth = 4): { path: string; records: unknown[] }[] {
  return [{ path: '', value: body }, ...leafPaths(body, depth)]
    .flatMap(({ path, value }) =>
      Array.isArray(value) && value.length > 0 && value.every(isRecord)
        ? [{ path, records: value }]
        : [],
    )
    .sort((a, b) => b.records.length - a.records.length);
}

/** Every place in a record (nested objects followed, `depth` levels) with its value. */
export function leafPaths(record: unknown, depth = 3): { path: string; value: unknown }[] {
  const out: { path: string; value: unknown }[] = [];
  const walk = (value: unknown, path: string, left: number) => {
    if (path) out.push({ path, value });
    if (!isRecord(value) || left === 0) return;
    for (const [key, inner] of Object.entries(value))
      walk(inner, path ? `${path}.${key}` : key, left - 1);
  };
  walk(record, '', depth);
  return out;
}
