import type { FieldErrors } from '../failures/fields.ts';

/**
 * Date-only arithmetic for stays. Values are `YYYY-MM-DD` strings; every computation runs on the
 * UTC calendar, so no time zone or daylight-saving change can move a day. Shared by server and widget.
 */

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`, or `undefined`. */
function dayNumber(value: string): number | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  // Rejects 2025-02-30 and friends (Date.UTC would roll them over).
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) {
    return undefined;
  }
  return ms / DAY_MS;
}

function fromDayNumber(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** A real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  return dayNumber(value) !== undefined;
}

/** `date` plus `days` calendar days (negative goes back). */
export function addDays(date: string, days: number): string {
  const n = dayNumber(date);
  if (n === undefined) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  return fromDayNumber(n + days);
}

/** Nights from check-in to check-out (negative when reversed). */
export function nightsBetween(checkIn: string, checkOut: string): number {
  const a = dayNumber(checkIn);
  const b = dayNumber(checkOut);
  if (a === undefined || b === undefined) return Number.NaN;
  return b - a;
}

/** Today's calendar date in `timeZone` at the instant `now`, as `YYYY-MM-DD`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The stay limits of a tenant. */
export interface StayRules {
  /** The tenant's today (`todayIn(tenant.timeZone)`). */
  today: string;
  minNights: number;
  maxNights: number;
}

/** Field messages for a date range, keyed `checkIn` / `checkOut`; empty when the stay is valid. */
export function stayErrors(checkIn: string, checkOut: string, rules: StayRules): FieldErrors {
  const errors: FieldErrors = {};
  const inOk = isIsoDate(checkIn);
  const outOk = isIsoDate(checkOut);
  if (!checkIn) errors['checkIn'] = ['Choose a check-in date.'];
  else if (!inOk) errors['checkIn'] = ['Enter the check-in date as YYYY-MM-DD.'];
  else if (checkIn < rules.today) errors['checkIn'] = ['Check-in cannot be in the past.'];
  if (!checkOut) errors['checkOut'] = ['Choose a check-out date.'];
  else if (!outOk) errors['checkOut'] = ['Enter the check-out date as YYYY-MM-DD.'];
  if (inOk && outOk && !errors['checkIn']) {
    const nights = nightsBetween(checkIn, checkOut);
    if (nights <= 0) errors['checkOut'] = ['Check-out must be after check-in.'];
    else if (nights < rules.minNights) {
      errors['checkOut'] = [`The minimum stay is ${plural(rules.minNights, 'night')}.`];
    } else if (nights > rules.maxNights) {
      errors['checkOut'] = [`The maximum stay is ${plural(rules.maxNights, 'night')}.`];
    }
  }
  return errors;
}

/** `1 night`, `2 nights`; irregular plurals are passed in (`child`, `children`). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
