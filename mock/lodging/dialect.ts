import type { Context } from 'hono';
import { dialectOf } from '../lib/dialect.ts';
import { pageQuery } from '../lib/paginate.ts';
import { ALT_BOOKING_STATUSES, BOOKING_STATUSES, type BookingStatus, type Guest } from './model.ts';
import { ALT_TRANSITIONS, TRANSITIONS } from './rules.ts';
import {
  AltGuestSchema,
  altPageQuery,
  bookingCreateSchema,
  bookingListQuerySchema,
  bookingUpdateSchema,
  GuestSchema,
} from './schemas.ts';

/** The rules that differ between the dialects (shapes live in serialize.ts / serialize-alt.ts). */
export type LodgingRules = {
  statuses: readonly [BookingStatus, ...BookingStatus[]];
  transitions: Partial<Record<BookingStatus, readonly BookingStatus[]>>;
  newBooking: BookingStatus;
  cancelled: BookingStatus;
  bookingCreate: ReturnType<typeof bookingCreateSchema>;
  bookingUpdate: ReturnType<typeof bookingUpdateSchema>;
  bookingList: ReturnType<typeof bookingListQuerySchema>;
  guest: typeof GuestSchema | typeof AltGuestSchema;
  /** page/per_page of every list (the alt guest list reads only per_page). */
  page: ReturnType<typeof pageQuery> | typeof altPageQuery;
  /** What a guest `search` term is matched against. */
  searchFields: (g: Guest) => string[];
  /** Status of a create: 201 Created, or 200. */
  created: 200 | 201;
};

export const DEFAULT_RULES: LodgingRules = {
  statuses: BOOKING_STATUSES,
  transitions: TRANSITIONS,
  newBooking: 'pending',
  cancelled: 'cancelled',
  bookingCreate: bookingCreateSchema(1000),
  bookingUpdate: bookingUpdateSchema(BOOKING_STATUSES, 1000),
  bookingList: bookingListQuerySchema(BOOKING_STATUSES),
  guest: GuestSchema,
  page: pageQuery(15, 100),
  searchFields: (g) => [g.first_name, g.last_name, g.email, g.phone ?? ''],
  created: 201,
};

export const ALT_RULES: LodgingRules = {
  statuses: ALT_BOOKING_STATUSES,
  transitions: ALT_TRANSITIONS,
  newBooking: 'tentative',
  cancelled: 'canceled',
  bookingCreate: bookingCreateSchema(500, true),
  bookingUpdate: bookingUpdateSchema(ALT_BOOKING_STATUSES, 500),
  bookingList: bookingListQuerySchema(ALT_BOOKING_STATUSES),
  guest: AltGuestSchema,
  page: altPageQuery,
  // Names only (a LIKE on first, last and full name): e-mail and phone never match.
  searchFields: (g) => [g.first_name, g.last_name, `${g.first_name} ${g.last_name}`],
  created: 200,
};

export const isAlt = (c: Context) => dialectOf(c) === 'alt';
export const rulesOf = (c: Context): LodgingRules => (isAlt(c) ? ALT_RULES : DEFAULT_RULES);
