import { z } from 'zod';
import { bool, decimal, enveloped, id, int, listOf } from '../upstream/parse.ts';

/**
 * Lodging API resources. The contract shows little beyond identifiers and request fields, so
 * everything past those is optional; names stay as sent (snake_case) and unknown fields pass.
 */

const nullableString = z.string().nullish();

export const lodgingUserSchema = z.looseObject({
  id,
  name: z.string(),
  email: z.string().optional(),
});
export type LodgingUser = z.output<typeof lodgingUserSchema>;

/** Login answers `{ user, token, token_type }` unwrapped (the contract), a `data` envelope also passes. */
export const lodgingLoginSchema = enveloped(
  z.looseObject({
    user: lodgingUserSchema,
    token: z.string().min(1),
    token_type: z.string().optional(),
  }),
);
export type LodgingLogin = z.output<typeof lodgingLoginSchema>;

export const roomTypeSchema = z.looseObject({
  id,
  name: z.string(),
  description: nullableString,
  max_adults: int.optional(),
  max_children: int.optional(),
  max_occupancy: int.optional(),
  base_price: decimal.optional(),
  currency: z.string().optional(),
  total_rooms: int.optional(),
});
export type RoomType = z.output<typeof roomTypeSchema>;

export const propertySchema = z.looseObject({
  id,
  name: z.string().optional(),
  description: nullableString,
  address: nullableString,
  city: nullableString,
  country: nullableString,
  timezone: nullableString,
  currency: nullableString,
  check_in_time: nullableString,
  check_out_time: nullableString,
  room_types: z
    .array(roomTypeSchema)
    .nullish()
    .transform((r) => r ?? []),
});
export type Property = z.output<typeof propertySchema>;

export const roomAvailabilitySchema = z.looseObject({
  room_type_id: id,
  name: z.string().optional(),
  max_occupancy: int.optional(),
  available_rooms: int.optional(),
  available: bool,
  price_per_night: decimal.optional(),
  total_price: decimal.optional(),
  currency: z.string().optional(),
});
export type RoomAvailability = z.output<typeof roomAvailabilitySchema>;

export const availabilitySchema = z.looseObject({
  property_id: id,
  check_in: z.string(),
  check_out: z.string(),
  nights: int.optional(),
  guests: int.optional(),
  currency: z.string().optional(),
  room_types: z.array(roomAvailabilitySchema).default([]),
});
export type Availability = z.output<typeof availabilitySchema>;

export const bookingSchema = z.looseObject({
  id,
  reference: z.string().optional(),
  property_id: id,
  room_type_id: id.optional(),
  guest_id: id.optional(),
  check_in: z.string(),
  check_out: z.string(),
  nights: int.optional(),
  adults: int.optional(),
  children: int.optional(),
  notes: nullableString,
  status: z.string(),
  total_price: decimal.nullish(),
  currency: nullableString,
  created_at: nullableString,
  updated_at: nullableString,
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

export const meSchema = enveloped(lodgingUserSchema);
export const propertyListSchema = listOf(propertySchema);
export const singlePropertySchema = enveloped(propertySchema);
export const singleAvailabilitySchema = enveloped(availabilitySchema);
export const bookingListSchema = listOf(bookingSchema);
export const singleBookingSchema = enveloped(bookingSchema);
export const guestListSchema = listOf(guestSchema);
export const singleGuestSchema = enveloped(guestSchema);
export const messageSchema = z.looseObject({ message: z.string().optional() });

/** DELETE /bookings/{id}: the cancelled booking, or just a message on an upstream that sends one. */
export const cancelResultSchema = z.preprocess(
  (value) => {
    if (typeof value === 'object' && value !== null && 'data' in value) return value;
    return { data: null, message: (value as { message?: unknown } | undefined)?.message };
  },
  z.object({ data: bookingSchema.nullable(), message: z.unknown().optional() }),
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

export interface BookingUpdate {
  status?: string | undefined;
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
