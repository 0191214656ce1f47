import { z } from 'zod';
import {
  accountSchema,
  bool,
  decimal,
  enveloped,
  id,
  int,
  itemsOf,
  listOf,
} from '../upstream/parse.ts';
import { isRecord } from '../content/records.ts';

/**
 * Lodging API resources. The contract shows little beyond identifiers and request fields, so
 * everything past those is optional; names stay as sent (snake_case) and unknown fields pass. Other
 * spellings of a field are the profile's to map (`profiles/lodging-default.json`); only the values'
 * own forms are read here.
 */

const nullableString = z.string().nullish();

/** Optional and lenient: a value of an unexpected type reads as absent (the mapping decides). */
const maybe = <S extends z.ZodType>(schema: S) => schema.nullish().catch(undefined);
const text = maybe(z.string());
const count = maybe(int);
const money = maybe(decimal);
/** `"2026-12-04T00:00:00.000000Z"` (a date cast) or `"2026-12-04 00:00:00"` (SQL) → `"2026-12-04"`. */
const date = z.string().transform((value) => value.replace(/^(\d{4}-\d{2}-\d{2})[T ]\d.*$/, '$1'));
/** `"15:00:00"` (SQL TIME) → `"15:00"`. */
const time = maybe(z.string().transform((value) => value.replace(/^(\d{2}:\d{2}):\d{2}$/, '$1')));
/** A night as its rate (`119.5`, or `{ date, rate }`), as decimal strings; anything unreadable makes the whole list absent. */
const night = (value: unknown) =>
  isRecord(value) ? (value['rate'] ?? value['price'] ?? value['amount'] ?? value['total']) : value;
const nightlyRates = maybe(z.array(z.preprocess(night, decimal)));

export const roomTypeSchema = z.looseObject({
  id,
  name: text,
  description: text,
  max_adults: count,
  max_children: count,
  max_occupancy: count,
  base_price: money,
  currency: text,
  total_rooms: count,
});
export type RoomType = z.output<typeof roomTypeSchema>;

/** Only the id is required to parse: what else is missing is the booking mapping's to judge. */
export const propertySchema = z.looseObject({
  id,
  name: text,
  description: text,
  address: text,
  city: text,
  country: text,
  timezone: text,
  currency: text,
  check_in_time: time,
  check_out_time: time,
  // Unreadable room types are left out and reported; none readable still shows the property.
  room_types: maybe(itemsOf(roomTypeSchema)).transform((rooms) => rooms ?? []),
});
export type Property = z.output<typeof propertySchema>;

export const roomAvailabilitySchema = z.looseObject({
  room_type_id: id,
  name: text,
  max_occupancy: count,
  available_rooms: count,
  /** Absent on upstreams that only count free units. */
  available: maybe(bool),
  price_per_night: money,
  total_price: money,
  currency: text,
  nightly_rates: nightlyRates,
});
export type RoomAvailability = z.output<typeof roomAvailabilitySchema>;

export const availabilitySchema = z.looseObject({
  property_id: maybe(id),
  check_in: maybe(date),
  check_out: maybe(date),
  nights: count,
  guests: count,
  currency: text,
  room_types: maybe(z.array(roomAvailabilitySchema)).transform((rooms) => rooms ?? []),
});
export type Availability = z.output<typeof availabilitySchema>;

export const bookingSchema = z.looseObject({
  id,
  reference: text,
  property_id: maybe(id),
  room_type_id: maybe(id),
  guest_id: maybe(id),
  check_in: date,
  check_out: date,
  nights: count,
  adults: count,
  children: count,
  notes: text,
  status: z.string(),
  total_price: money,
  currency: text,
  nightly_rates: nightlyRates,
  created_at: text,
  updated_at: text,
});
export type Booking = z.output<typeof bookingSchema>;

export const guestSchema = z.looseObject({
  id,
  first_name: z.string(),
  last_name: z.string(),
  email: nullableString,
  phone: nullableString,
  nationality: nullableString,
  created_at: nullableString,
  updated_at: nullableString,
});
export type Guest = z.output<typeof guestSchema>;

export const meSchema = enveloped(accountSchema);
export const propertyListSchema = listOf(propertySchema);
export const singlePropertySchema = enveloped(propertySchema);
export const singleAvailabilitySchema = enveloped(availabilitySchema);
export const bookingListSchema = listOf(bookingSchema);
export const singleBookingSchema = enveloped(bookingSchema);
export const guestListSchema = listOf(guestSchema);
export const singleGuestSchema = enveloped(guestSchema);

/** DELETE /bookings/{id}: the cancelled booking, or just a message on an upstream that sends one. */
export const cancelResultSchema = z.preprocess(
  (value) => {
    if (isRecord(value) && 'data' in value) return value;
    // A bare model (no resource envelope).
    if (isRecord(value) && 'status' in value) return { data: value };
    return { data: null, message: isRecord(value) ? value['message'] : undefined };
  },
  z.object({ data: bookingSchema.nullable().catch(null), message: z.unknown().optional() }),
);

// Inputs.

export interface BookingInput {
  property_id: string;
  room_type_id: string;
  guest_id: string;
  /** YYYY-MM-DD */
  check_in: string;
  /** YYYY-MM-DD */
  check_out: string;
  adults: number;
  children?: number | undefined;
  notes?: string | undefined;
}

export interface GuestInput {
  first_name: string;
  last_name: string;
  email: string;
  /** E.164, e.g. `+441234567890`. */
  phone?: string | undefined;
  /** ISO 3166-1 alpha-2, e.g. `GB`. */
  nationality?: string | undefined;
}

export interface BookingFilters {
  status?: string | undefined;
  property_id?: string | undefined;
  check_in_from?: string | undefined;
  check_in_to?: string | undefined;
  guest_id?: string | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

export interface AvailabilityQuery {
  check_in: string;
  check_out: string;
  guests?: number | undefined;
}
