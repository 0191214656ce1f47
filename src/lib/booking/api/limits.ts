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
 * The caps on booking mails, whoever asks, each under its limiter's name (spent and given back
 * under the same one). Every booking mail to one address (confirmation, link, cancellation): one
 * visitor booking once per victim (each from another address) cannot make the hotel's mail reach
 * anyone more than a few times an hour; the bookings still go through, the mail is what is capped.
 * Link mails ("find my booking") are capped per recipient and per booking too.
 */
const MAIL_CAPS = {
  'booking:mail:recipientHour': { points: 3, duration: 3600 },
  'booking:link-mail:recipientDay': { points: 10, duration: 86_400 },
  'booking:link-mail:bookingHour': { points: 3, duration: 3600 },
} as const;
type MailCap = keyof typeof MAIL_CAPS;

const mailLimiter = (cap: MailCap) => visitorLimiter(cap, MAIL_CAPS[cap], REDIS_URL);

async function spend(tenantId: string, cap: MailCap, key: string): Promise<boolean> {
  if ((await consumeLimit(mailLimiter(cap), key)).ok) return true;
  logWarn('booking.mail_capped', { tenant: tenantId, cap });
  return false;
}

const recipientKey = (tenantId: string, email: string) =>
  `${tenantId}|${hash(normalizeEmail(email))}`;

/** Spends one booking mail to `email`; false once the address had its few this hour. */
export const mayMailTo = (tenantId: string, email: string): Promise<boolean> =>
  spend(tenantId, 'booking:mail:recipientHour', recipientKey(tenantId, email));

/** Gives back the mail `mayMailTo` spent when the mail server refused it (none reached the address). */
export const unspendMailTo = (tenantId: string, email: string): Promise<void> =>
  refundLimit(mailLimiter('booking:mail:recipientHour'), recipientKey(tenantId, email));

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
    (await spend(tenantId, 'booking:link-mail:bookingHour', booking)) &&
    (await spend(tenantId, 'booking:link-mail:recipientDay', recipient)) &&
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
  await Promise.all([
    refundLimit(mailLimiter('booking:link-mail:bookingHour'), bookingKey(tenantId, reference)),
    refundLimit(mailLimiter('booking:link-mail:recipientDay'), recipientKey(tenantId, email)),
  ]);
}
