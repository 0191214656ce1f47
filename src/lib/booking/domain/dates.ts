import type { FieldErrors } from '../../failures/fields.ts';
import { textKey } from '../../i18n/text-key.ts';

/**
 * Date-only arithmetic for stays. Values are `YYYY-MM-DD` strings; every computation runs on the
 * UTC calendar, so no time zone or daylight-saving change can move a day. Shared by server and widget.
 */

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`, or `undefined`. */
function dayNumber(value: string): number | undefined {
  const days = ISO_DATE.test(value) ? Date.parse(value) / DAY_MS : Number.NaN;
  // Rejects 2025-02-30 and friends (Date.parse rolls them over into March).
  return Number.isNaN(days) || fromDayNumber(days) !== value ? undefined : days;
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
  return (dayNumber(checkOut) ?? Number.NaN) - (dayNumber(checkIn) ?? Number.NaN);
}

/** Where a stay's days are counted: the property's time zone, else the tenant's. */
export const stayZone = (
  place: { timeZone?: string | undefined } | undefined,
  tenant: { timeZone: string },
): string => place?.timeZone ?? tenant.timeZone;

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

/** How far ahead a stay may begin: the lodging contract names no horizon, so the site sets one. */
export const BOOKING_HORIZON_YEARS = 2;

/** The last check-in day bookable from `today`: two years on (28 February for a 29th). */
export function latestCheckIn(today: string): string {
  const later = `${String(Number(today.slice(0, 4)) + BOOKING_HORIZON_YEARS).padStart(4, '0')}${today.slice(4)}`;
  return isIsoDate(later) ? later : later.replace(/-29$/, '-28');
}

/** The stay limits of a tenant. */
export interface StayRules {
  /** The stay's today: in the property's time zone, else the tenant's. */
  today: string;
  minNights: number;
  maxNights: number;
}

/** Field messages for a date range, keyed `checkIn` / `checkOut`; empty when the stay is valid. */
export function stayErrors(checkIn: string, checkOut: string, rules: StayRules): FieldErrors {
  const errors: FieldErrors = {};
  const inOk = isIsoDate(checkIn);
  const outOk = isIsoDate(checkOut);
  if (!checkIn) errors['checkIn'] = [textKey('booking.error.checkInRequired')];
  else if (!inOk) errors['checkIn'] = [textKey('booking.error.checkInFormat')];
  else if (checkIn < rules.today) errors['checkIn'] = [textKey('booking.error.checkInPast')];
  else if (checkIn > latestCheckIn(rules.today)) {
    errors['checkIn'] = [textKey('booking.error.checkInTooFar')];
  }
  if (!checkOut) errors['checkOut'] = [textKey('booking.error.checkOutRequired')];
  else if (!outOk) errors['checkOut'] = [textKey('booking.error.checkOutFormat')];
  if (inOk && outOk && !errors['checkIn']) {
    const nights = nightsBetween(checkIn, checkOut);
    if (nights <= 0) errors['checkOut'] = [textKey('booking.error.checkOutBefore')];
    else if (nights < rules.minNights) {
      errors['checkOut'] = [textKey('booking.error.minStay', { count: rules.minNights })];
    } else if (nights > rules.maxNights) {
      errors['checkOut'] = [textKey('booking.error.maxStay', { count: rules.maxNights })];
    }
  }
  return errors;
}
