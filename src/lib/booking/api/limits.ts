import type { APIContext } from 'astro';
import { createHash } from 'node:crypto';
import { logWarn } from '../../log/log.ts';
import { textKey } from '../../i18n/text-key.ts';
import {
  addressKey,
  consumeLimit,
  refundLimit,
  visitorLimiter,
} from '../../request/visitor-limits.ts';
import { settings } from '../../settings/settings.ts';
import { normalizeEmail } from '../domain/email.ts';
import { busy } from '../domain/failures.ts';

const { BOOKING_PER_IP_PER_10_MIN, BOOKING_SEARCHES_PER_IP_PER_MIN, REDIS_URL } = settings();

/** Per-visitor limits of booking, searching and finding, and caps on link mails. */

const LIMITS = {
  // Creating bookings: a person books a handful of stays, not dozens, from one address.
  book: { points: BOOKING_PER_IP_PER_10_MIN, duration: 600 },
  // Searches: generous, but one visitor must not spend the tenant's whole upstream budget.
  search: { points: BOOKING_SEARCHES_PER_IP_PER_MIN, duration: 60 },
  // "Find my booking" e-mails links: as few as bookings, so it cannot be used to send mail in bulk.
  find: { points: BOOKING_PER_IP_PER_10_MIN, duration: 600 },
} as const;
type LimitKind = keyof typeof LIMITS;

export async function limit(context: Pick<APIContext, 'locals'>, kind: LimitKind): Promise<void> {
  const key = `${context.locals.tenantMatchOrNull?.tenant.id ?? '-'}|${addressKey(context.locals.visitor.address)}`;
  const outcome = await consumeLimit(
    visitorLimiter(`booking:${kind}`, LIMITS[kind], REDIS_URL),
    key,
  );
  if (outcome.ok) return;
  const wait = outcome.retryAfterSeconds;
  const message = {
    book: textKey('booking.error.tooManyBookings', { wait }),
    search: textKey('booking.error.tooManySearches', { wait }),
    find: textKey('booking.error.tooManyFinds', { wait }),
  }[kind];
  throw busy(message, wait);
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Every booking mail to one address (confirmation, link, cancellation), whoever asks: one visitor
 * booking once per victim (each from another address) cannot make the hotel's mail reach anyone
 * more than a few times an hour. The bookings still go through; the mail is what is capped.
 */
const RECIPIENT_HOUR = { points: 3, duration: 3600 };

/** Link mails ("find my booking") per recipient and per booking, whoever asks. */
const LINK_MAILS = {
  recipientDay: { points: 10, duration: 86_400 },
  bookingHour: { points: 3, duration: 3600 },
} as const;

async function spend(
  tenantId: string,
  name: string,
  cap: { points: number; duration: number },
  key: string,
): Promise<boolean> {
  if ((await consumeLimit(visitorLimiter(name, cap, REDIS_URL), key)).ok) return true;
  logWarn('booking.mail_capped', { tenant: tenantId, cap: name });
  return false;
}

const recipientKey = (tenantId: string, email: string) =>
  `${tenantId}|${hash(normalizeEmail(email))}`;

const RECIPIENT_HOUR_NAME = 'booking:mail:recipientHour';

/** Spends one booking mail to `email`; false once the address had its few this hour. */
export const mayMailTo = (tenantId: string, email: string): Promise<boolean> =>
  spend(tenantId, RECIPIENT_HOUR_NAME, RECIPIENT_HOUR, recipientKey(tenantId, email));

/** Gives back the mail `mayMailTo` spent when the mail server refused it (none reached the address). */
export const unspendMailTo = (tenantId: string, email: string): Promise<void> =>
  refundLimit(
    visitorLimiter(RECIPIENT_HOUR_NAME, RECIPIENT_HOUR, REDIS_URL),
    recipientKey(tenantId, email),
  );

const bookingKey = (tenantId: string, reference: string) =>
  `${tenantId}|${hash(reference.trim().toUpperCase())}`;

/** Spends one link mail to `email` for the booking `reference`; false once a cap is reached. */
export async function mayMailLink(
  tenantId: string,
  email: string,
  reference: string,
): Promise<boolean> {
  const recipient = recipientKey(tenantId, email);
  const booking = bookingKey(tenantId, reference);
  return (
    (await spend(tenantId, 'booking:link-mail:bookingHour', LINK_MAILS.bookingHour, booking)) &&
    (await spend(tenantId, 'booking:link-mail:recipientDay', LINK_MAILS.recipientDay, recipient)) &&
    (await mayMailTo(tenantId, email))
  );
}

/**
 * Gives back the link mail's own caps (per booking, per recipient a day) when none went out; the
 * address's hourly mail comes back with the refused send (mail/send.ts).
 */
export async function unspendMailLink(
  tenantId: string,
  email: string,
  reference: string,
): Promise<void> {
  const { bookingHour, recipientDay } = LINK_MAILS;
  await Promise.all([
    refundLimit(
      visitorLimiter('booking:link-mail:bookingHour', bookingHour, REDIS_URL),
      bookingKey(tenantId, reference),
    ),
    refundLimit(
      visitorLimiter('booking:link-mail:recipientDay', recipientDay, REDIS_URL),
      recipientKey(tenantId, email),
    ),
  ]);
}
