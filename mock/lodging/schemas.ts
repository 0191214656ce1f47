import { z } from 'zod';
import { date, email, int, msg, oneOf, optional, required, str, uuid } from '../lib/validation.ts';
import type { BookingStatus } from './model.ts';

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
// CLDR knows these pseudo-regions; ISO 3166-1 does not assign them.
const NOT_ISO = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'XK', 'ZZ']);

/** ISO 3166-1 alpha-2, uppercase, a real code. */
const isCountry = (v: string) =>
  /^[A-Z]{2}$/.test(v) && !NOT_ISO.has(v) && regions.of(v) !== undefined;

export const LoginSchema = z.object({
  email: required(email('email')),
  password: required(str('password')),
});

export const AvailabilityQuerySchema = z.object({
  check_in: required(date('check_in')),
  check_out: required(date('check_out')),
  guests: optional(int('guests', { min: 1 })),
});

type Statuses = readonly [BookingStatus, ...BookingStatus[]];

/** `childrenRequired`: the alt dialect's `children` is `required`, not defaulted to 0. */
export const bookingCreateSchema = (notesMax: number, childrenRequired = false) =>
  z.object({
    property_id: required(uuid('property_id')),
    room_type_id: required(uuid('room_type_id')),
    guest_id: required(uuid('guest_id')),
    check_in: required(date('check_in')),
    check_out: required(date('check_out')),
    adults: required(int('adults', { min: 1 })),
    children: childrenRequired
      ? required(int('children', { min: 0 }))
      : optional(int('children', { min: 0 })),
    notes: optional(str('notes', { max: notesMax })),
  });

export const bookingUpdateSchema = (statuses: Statuses, notesMax: number) =>
  z.object({
    status: optional(oneOf('status', statuses)),
    notes: optional(str('notes', { max: notesMax })),
  });

export const bookingListQuerySchema = (statuses: Statuses) =>
  z.object({
    status: optional(oneOf('status', statuses)),
    property_id: optional(str('property_id')),
    guest_id: optional(str('guest_id')),
    check_in_from: optional(date('check_in_from')),
    check_in_to: optional(date('check_in_to')),
  });

const nationality = optional(
  str('nationality').refine(isCountry, { error: msg.selected('nationality') }),
);

export const GuestSchema = z.object({
  first_name: required(str('first_name', { max: 255 })),
  last_name: required(str('last_name', { max: 255 })),
  email: required(email('email')),
  phone: optional(str('phone').regex(/^\+\d{7,15}$/, { error: msg.format('phone') })),
  nationality,
});

/** Alt: phone required, written as people write it (spaces, dashes, brackets, national form). */
export const AltGuestSchema = GuestSchema.extend({
  phone: required(
    str('phone', { max: 20 }).regex(/^\+?[\d\s\-()]{7,20}$/, { error: msg.format('phone') }),
  ),
});

/** Alt page size: default 10, above 50 is a 422 (Laravel `max:50`) rather than clamped. */
export const altPageQuery = z.object({
  page: optional(int('page', { min: 1 })).transform((v) => v ?? 1),
  per_page: optional(int('per_page', { min: 1, max: 50 })).transform((v) => v ?? 10),
});

export const GuestListQuerySchema = z.object({ search: optional(str('search', { max: 255 })) });
