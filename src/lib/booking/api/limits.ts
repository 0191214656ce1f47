import type { APIContext } from 'astro';
import { createHash } from 'node:crypto';
import { logWarn } from '../../log/log.ts';
import { textKey } from '../../i18n/text-key.ts';
import { addressKey, consumeLimit, visitorLimiter } from '../../request/visitor-limits.ts';
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

/** Link mails ("find my booking") per recipient and per booking, whoever asks. */
const LINK_MAILS = {
  recipientHour: { points: 3, duration: 3600 },
  recipientDay: { points: 10, duration: 86_400 },
  bookingHour: { points: 3, duration: 3600 },
} as const;

/** Spends one link mail to `email` for the booking `reference`; false once a cap is reached. */
export async function mayMailLink(
  tenantId: string,
  email: string,
  reference: string,
): Promise<boolean> {
  const hash = (text: string) => createHash('sha256').update(text).digest('base64url');
  const recipient = `${tenantId}|${hash(normalizeEmail(email))}`;
  const booking = `${tenantId}|${hash(reference.trim().toUpperCase())}`;
  const checks = [
    ['recipientHour', recipient],
    ['recipientDay', recipient],
    ['bookingHour', booking],
  ] as const;
  for (const [name, key] of checks) {
    const limiter = visitorLimiter(`booking:link-mail:${name}`, LINK_MAILS[name], REDIS_URL);
    if (!(await consumeLimit(limiter, key)).ok) {
      logWarn('booking.link_mail_capped', { tenant: tenantId, cap: name });
      return false;
    }
  }
  return true;
}
