import { z } from 'zod';
import { date, email, int, msg, oneOf, optional, required, str, uuid } from '../lib/validation.ts';
import { BOOKING_STATUSES } from './model.ts';

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

export const BookingCreateSchema = z.object({
  property_id: required(uuid('property_id')),
  room_type_id: required(uuid('room_type_id')),
  guest_id: required(uuid('guest_id')),
  check_in: required(date('check_in')),
  check_out: required(date('check_out')),
  adults: required(int('adults', { min: 1 })),
  children: optional(int('children', { min: 0 })),
  notes: optional(str('notes', { max: 1000 })),
});

export const BookingUpdateSchema = z.object({
  status: optional(oneOf('status', BOOKING_STATUSES)),
  notes: optional(str('notes', { max: 1000 })),
});

export const BookingListQuerySchema = z.object({
  status: optional(oneOf('status', BOOKING_STATUSES)),
  property_id: optional(str('property_id')),
  guest_id: optional(str('guest_id')),
  check_in_from: optional(date('check_in_from')),
  check_in_to: optional(date('check_in_to')),
});

export const GuestSchema = z.object({
  first_name: required(str('first_name', { max: 255 })),
  last_name: required(str('last_name', { max: 255 })),
  email: required(email('email')),
  phone: optional(str('phone').regex(/^\+\d{7,15}$/, { error: msg.format('phone') })),
  nationality: optional(
    str('nationality').refine(isCountry, { error: msg.selected('nationality') }),
  ),
});

export const GuestListQuerySchema = z.object({ search: optional(str('search', { max: 255 })) });
