import { addDays, isoDate, nightsBetween, todayDate } from '../lib/dates.ts';
import { addError, msg, type FieldErrors } from '../lib/validation.ts';
import type { Booking, BookingStatus, LodgingData, RoomType } from './model.ts';

/** Statuses that free the room; every other status (pending, tentative, requested…) holds it. */
export const RELEASED: readonly BookingStatus[] = [
  'cancelled',
  'canceled',
  'no_show',
  'checked_out',
];
export const holdsRoom = (b: Booking) => !RELEASED.includes(b.status);

/** Allowed moves; staying in the same status is always allowed (a notes-only update). */
export const TRANSITIONS: Partial<Record<BookingStatus, readonly BookingStatus[]>> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['checked_in', 'cancelled', 'no_show'],
  checked_in: ['checked_out'],
};

/** The alt dialect: a request or hold, then confirmed, then paid (`booked`); US `canceled`. */
export const ALT_TRANSITIONS: Partial<Record<BookingStatus, readonly BookingStatus[]>> = {
  requested: ['tentative', 'confirmed', 'canceled'],
  tentative: ['confirmed', 'booked', 'canceled'],
  confirmed: ['booked', 'checked_in', 'canceled', 'no_show'],
  booked: ['checked_in', 'canceled', 'no_show'],
  checked_in: ['checked_out'],
};

export const MAX_NIGHTS = 30;

/** Rooms of a type free on every night of the range (peak occupancy decides). */
export function freeRooms(
  data: LodgingData,
  rt: RoomType,
  checkIn: string,
  checkOut: string,
  ignore?: Booking,
): number {
  const holding = data.bookings.filter(
    (b) =>
      b !== ignore &&
      b.roomTypeId === rt.id &&
      holdsRoom(b) &&
      b.checkIn < checkOut &&
      checkIn < b.checkOut,
  );
  let peak = 0;
  const start = new Date(`${checkIn}T00:00:00Z`);
  for (let i = 0; i < nightsBetween(checkIn, checkOut); i++) {
    const night = isoDate(addDays(start, i));
    peak = Math.max(peak, holding.filter((b) => b.checkIn <= night && night < b.checkOut).length);
  }
  return Math.max(0, rt.totalRooms - peak);
}

/** Cross-field date rules shared by availability and booking creation; today is `timeZone`'s. */
export function checkStay(
  checkIn: string,
  checkOut: string,
  timeZone: string,
  errors: FieldErrors,
): void {
  if (checkIn < todayDate(timeZone)) addError(errors, 'check_in', msg.afterToday('check_in'));
  if (checkOut <= checkIn) addError(errors, 'check_out', msg.after('check_out', 'check_in'));
  else if (nightsBetween(checkIn, checkOut) > MAX_NIGHTS) {
    addError(errors, 'check_out', `The stay must not be longer than ${MAX_NIGHTS} nights.`);
  }
}

/** Friday and Saturday nights carry the weekend price when the room type has one. */
export function nightlyRates(rt: RoomType, checkIn: string, checkOut: string) {
  const start = new Date(`${checkIn}T00:00:00Z`);
  return Array.from({ length: nightsBetween(checkIn, checkOut) }, (_, i) => {
    const night = addDays(start, i);
    const weekend = night.getUTCDay() === 5 || night.getUTCDay() === 6;
    return { date: isoDate(night), price: (weekend && rt.weekendPrice) || rt.basePrice };
  });
}

/** The stay's total: the sum of its nightly rates, in cents to stay exact. */
export const price = (rt: RoomType, checkIn: string, checkOut: string) =>
  (
    nightlyRates(rt, checkIn, checkOut).reduce(
      (cents, n) => cents + Math.round(Number(n.price) * 100),
      0,
    ) / 100
  ).toFixed(2);
