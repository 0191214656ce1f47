import { z } from 'zod';
import { isIsoDate } from './dates.ts';
import { normalizeEmail } from './email.ts';
import { textKey } from '../../i18n/text-key.ts';

/** Zod schemas of everything that enters the booking endpoints and the embed page (messages are text keys). */

export const MAX_NAME = 100;
export const MAX_NOTES = 1000;

const isoDate = (field: 'checkIn' | 'checkOut') =>
  z.string({ error: textKey(`booking.error.${field}Required`) }).refine(isIsoDate, {
    error: textKey(`booking.error.${field}Format`),
  });

// The schema's error is also each of its checks' (zod 4).
const count = (message: string) => z.coerce.number({ error: message }).int().min(0).max(50);

export const availabilityQuerySchema = z.object({
  property: z.uuid({ error: textKey('booking.error.placeRequired') }),
  checkIn: isoDate('checkIn'),
  checkOut: isoDate('checkOut'),
  adults: count(textKey('booking.error.adultsCount')),
  children: count(textKey('booking.error.childrenCount')).default(0),
});
export type AvailabilityQuery = z.output<typeof availabilityQuerySchema>;

const name = (field: 'firstName' | 'lastName') =>
  z
    .string({ error: textKey(`booking.error.${field}Required`) })
    .max(MAX_NAME * 2, { error: textKey(`booking.error.${field}TooLong`, { max: MAX_NAME }) });

/** The guest's own details (the widget's last form step). */
const guestDetailsSchema = z.strictObject({
  firstName: name('firstName'),
  lastName: name('lastName'),
  // One spelling before anything compares it (see email.ts); the form keeps what was typed.
  email: z
    .string({ error: textKey('booking.error.emailRequired') })
    .max(320)
    .transform(normalizeEmail),
  phone: z
    .string({ error: textKey('booking.error.phoneInvalid') })
    .max(40)
    .default(''),
  nationality: z
    .string({ error: textKey('booking.error.countryInvalid') })
    .max(2)
    .default(''),
  notes: z
    .string()
    .max(MAX_NOTES * 2, { error: textKey('booking.error.notesTooLong', { max: MAX_NOTES }) })
    .default(''),
});
export type GuestDetails = z.output<typeof guestDetailsSchema>;

/** What the widget posts to `/api/booking/bookings`. */
export const bookingRequestSchema = z.strictObject({
  /** One per attempt at a booking: the same key never creates a second booking. */
  idempotencyKey: z
    .string({ error: textKey('booking.error.requestKey') })
    .regex(/^[A-Za-z0-9_-]{16,100}$/),
  propertyId: z.uuid({ error: textKey('booking.error.placeRequired') }),
  roomTypeId: z
    .string({ error: textKey('booking.error.roomRequired') })
    .min(1, { error: textKey('booking.error.roomRequired') })
    .max(100),
  checkIn: isoDate('checkIn'),
  checkOut: isoDate('checkOut'),
  adults: count(textKey('booking.error.adultsCount')),
  children: count(textKey('booking.error.childrenCount')),
  ...guestDetailsSchema.shape,
});
export type BookingRequest = z.output<typeof bookingRequestSchema>;

/** The JSON API's body: the request, and `anotherRoom` to book a stay just booked once more. */
export const bookingPostSchema = bookingRequestSchema.extend({
  anotherRoom: z.optional(z.unknown()).transform((value) => value === true),
});

/**
 * The request as the no-JavaScript form posts it: text as typed, for the handler to judge (optional,
 * not defaulted: Astro reads an empty field of a non-optional string as null).
 */
const asTyped = z
  .string()
  .max(MAX_NOTES * 2)
  .optional();
export const bookingFormFields = Object.fromEntries(
  Object.keys(bookingRequestSchema.shape).map((key) => [key, asTyped]),
);

/** `tag` as a canonical BCP 47 locale (`en-gb` is `en-GB`), else undefined. */
export function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** A value that is dropped when it is not readable (never an error page). */
const lenient = <S extends z.ZodType>(schema: S) => schema.optional().catch(undefined);
const optionalDate = lenient(z.string().refine(isIsoDate));
const optionalCount = lenient(z.coerce.number().int().min(0).max(50));

/**
 * A link to a stay (`/stay?property=…&checkIn=…&checkOut=…&adults=…&children=…`, the embed's
 * fallback link, a campaign): each value that is not readable is dropped, never an error page.
 */
export const stayLinkSchema = z.object({
  property: lenient(z.uuid()),
  checkIn: optionalDate,
  checkOut: optionalDate,
  /** Instead of `checkOut`: the number of nights from `checkIn`. */
  nights: lenient(z.coerce.number().int().min(1).max(365)),
  adults: optionalCount,
  children: optionalCount,
  /** A room type of the property, chosen once its rooms are shown (if free). */
  room: lenient(z.string().max(100)),
});

/** `/embed/booking` query: the embed script's `data-*` attributes, plus the host page's origin. */
export const embedQuerySchema = z.object({
  ...stayLinkSchema.shape,
  property: z.uuid(),
  locale: lenient(z.string().max(35).refine(canonicalLocale)),
  origin: lenient(z.url({ protocol: /^https?$/ })),
});
