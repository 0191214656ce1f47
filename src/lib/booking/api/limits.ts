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

/**
 * The caps a mail spends, in turn, each with its key: a link mail (`reference`) its booking's
 * hourly and its address's daily caps, then every mail its address's hourly one.
 */
function capsOf(tenantId: string, email: string, reference?: string): [MailCap, string][] {
  const recipient = `${tenantId}|${hash(normalizeEmail(email))}`;
  const mail: [MailCap, string] = ['booking:mail:recipientHour', recipient];
  if (reference === undefined) return [mail];
  const booking = `${tenantId}|${hash(reference.trim().toUpperCase())}`;
  return [
    ['booking:link-mail:bookingHour', booking],
    ['booking:link-mail:recipientDay', recipient],
    mail,
  ];
}

/** Spends a mail to `email` (a link mail for `reference`); false once a cap is reached. */
export async function mayMail(
  tenantId: string,
  email: string,
  reference?: string,
): Promise<boolean> {
  for (const [cap, key] of capsOf(tenantId, email, reference)) {
    if ((await consumeLimit(mailLimiter(cap), key)).ok) continue;
    logWarn('booking.mail_capped', { tenant: tenantId, cap });
    return false;
  }
  return true;
}

/**
 * Gives back what `mayMail` spent when no mail went out; of a link mail, its own caps only: the
 * address's hourly mail comes back with the refused send (mail/send.ts).
 */
export async function unspendMail(
  tenantId: string,
  email: string,
  reference?: string,
): Promise<void> {
  const caps = capsOf(tenantId, email, reference);
  const own = reference === undefined ? caps : caps.slice(0, -1);
  await Promise.all(own.map(([cap, key]) => refundLimit(mailLimiter(cap), key)));
}
