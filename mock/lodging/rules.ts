import { addDays, isoDate, nightsBetween, todayDate } from '../lib/dates.ts';
import { addError, msg, type FieldErrors } from '../lib/validation.ts';
import type { Booking, BookingStatus, LodgingData, RoomType } from './model.ts';

/** Statuses that hold a room for the nights [check_in, check_out). */
export const OCCUPYING: readonly BookingStatus[] = ['pending', 'confirmed', 'checked_in'];

/** Allowed moves; staying in the same status is always allowed (a notes-only update). */
export const TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['checked_in', 'cancelled', 'no_show'],
  checked_in: ['checked_out'],
  checked_out: [],
  cancelled: [],
  no_show: [],
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
      OCCUPYING.includes(b.status) &&
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

/** Cross-field date rules shared by availability and booking creation. */
export function checkStay(checkIn: string, checkOut: string, errors: FieldErrors): void {
  if (checkIn < todayDate()) addError(errors, 'check_in', msg.afterToday('check_in'));
  if (checkOut <= checkIn) addError(errors, 'check_out', msg.after('check_out', 'check_in'));
  else if (nightsBetween(checkIn, checkOut) > MAX_NIGHTS) {
    addError(errors, 'check_out', `The stay must not be longer than ${MAX_NIGHTS} nights.`);
  }
}

export const price = (rt: RoomType, nights: number) => (Number(rt.basePrice) * nights).toFixed(2);
