import { PRIVATE } from '../../delivery/policy.ts';
import type { APIContext } from 'astro';
import { settings } from '../../settings/settings.ts';
import type { I18n } from '../../i18n/index.ts';
import { localize, localizeFields } from '../../i18n/text.ts';
import { widgetI18n } from '../../i18n/widget.ts';
import { createHash } from 'node:crypto';
import { logError, logWarn } from '../../log/log.ts';
import { tenantUrl } from '../../tenants/origin.ts';
import { normalizeEmail } from '../domain/email.ts';
import { consumeLimit, visitorLimiter } from '../../request/visitor-limits.ts';
import { bookingTenant } from '../../tenants/booking.ts';
import { BookingFailure, busy, notOffered, toFailure } from '../domain/failures.ts';
import { bookingServiceFor } from '../../services/clients.ts';
import type { BookingService } from '../service/service.ts';
import type { ApiResult, Confirmation } from '../domain/types.ts';
import { managePath } from '../manage/stay.ts';
import type { BookingRequest } from '../domain/schema.ts';
import { textKey } from '../../i18n/text-key.ts';
const { BOOKING_PER_IP_PER_10_MIN, BOOKING_SEARCHES_PER_IP_PER_MIN, REDIS_URL } = settings();

/** Shared plumbing of the `/api/booking/*` endpoints: JSON answers, origin check, per-IP limits. */

const LIMITS = {
  // Creating bookings: a person books a handful of stays, not dozens, from one address.
  book: { points: BOOKING_PER_IP_PER_10_MIN, duration: 600 },
  // Searches: generous, but one visitor must not spend the tenant's whole upstream budget.
  search: { points: BOOKING_SEARCHES_PER_IP_PER_MIN, duration: 60 },
  // "Find my booking" e-mails links: as few as bookings, so it cannot be used to send mail in bulk.
  find: { points: BOOKING_PER_IP_PER_10_MIN, duration: 600 },
} as const;
type LimitKind = keyof typeof LIMITS;
type Visit = Pick<APIContext, 'locals'>;

export function json<T>(
  body: ApiResult<T>,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': PRIVATE,
      ...headers,
    },
  });
}

/** A failure as JSON, its messages in the language the caller asked for. */
export function failure(error: BookingFailure, i18n: I18n): Response {
  const headers: Record<string, string> = {};
  if (error.error.retryAfter !== undefined) headers['Retry-After'] = String(error.error.retryAfter);
  const { message, fields } = error.error;
  const body = {
    ...error.error,
    message: localize(i18n, message),
    ...(fields ? { fields: localizeFields(i18n, fields) } : {}),
  };
  return json({ ok: false, error: body }, error.status, headers);
}

/** The answer's language: the first `Accept-Language` tag, else the tenant's. */
export function answerI18n(context: Pick<APIContext, 'locals' | 'request'>): I18n {
  const tag = context.request.headers.get('accept-language')?.split(/[,;]/)[0]?.trim() ?? '';
  let locale: string | undefined;
  try {
    locale = tag && tag !== '*' ? Intl.getCanonicalLocales(tag)[0] : undefined;
  } catch {
    locale = undefined;
  }
  return widgetI18n(context.locals.tenant, locale);
}

/** The manage link and the site's address for an e-mail, on the tenant's configured origin. */
function mailLinks(context: Pick<APIContext, 'locals'>, manage: string) {
  const manageUrl = tenantUrl(context.locals.tenantMatchOrNull, manage);
  const site = tenantUrl(context.locals.tenantMatchOrNull, '/');
  return manageUrl && site ? { manageUrl, site } : null;
}

/**
 * Books (within the visitor's limit), then makes the private link and sends the confirmation
 * e-mail (once; `mailed` says whether one went out, so no page promises an e-mail not sent).
 * The `bookStay` action and the JSON API both book through it.
 */
export async function bookAndMail(
  context: Visit,
  service: BookingService,
  guest: BookingRequest,
  anotherRoom: boolean,
): Promise<{ confirmation: Confirmation; manage: string; mailed: boolean }> {
  await limit(context, 'book');
  const confirmation = await service.book(guest, { anotherRoom });
  // Without the tenant's path prefix (as `href` takes it).
  const manage = managePath(service.tenant.id, confirmation);
  const links = mailLinks(context, manage);
  const mailed = links
    ? await service.mailConfirmation({
        confirmation,
        to: guest.email,
        guestName: `${guest.firstName.trim()} ${guest.lastName.trim()}`,
        ...links,
      })
    : false;
  return { confirmation, manage, mailed };
}

/** `checkOrigin` covers form posts only: a JSON POST must come from this site's pages. */
export function assertSameOrigin(context: APIContext): void {
  const origin = context.request.headers.get('origin');
  const type = context.request.headers.get('content-type') ?? '';
  // The origin the visitor's browser is on (the forwarded one behind a trusted proxy).
  const own = context.locals.tenantMatchOrNull?.origin;
  if (!own || origin !== own || !type.startsWith('application/json')) {
    throw new BookingFailure(403, {
      code: 'forbidden',
      message: textKey('booking.error.forbidden'),
    });
  }
}

export async function limit(context: Visit, kind: LimitKind): Promise<void> {
  const key = `${context.locals.tenantMatchOrNull?.tenant.id ?? '-'}|${context.locals.visitor.address}`;
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

/** Runs a handler with the tenant's booking service; every failure becomes a JSON answer. */
export async function handle<T>(
  context: APIContext,
  operation: string,
  run: (service: BookingService) => Promise<T>,
): Promise<Response> {
  const tenant = bookingTenant(context.locals);
  try {
    if (!tenant) throw notOffered();
    const data = await run(bookingServiceFor(tenant));
    return json({ ok: true, data });
  } catch (error) {
    if (error instanceof BookingFailure) return failure(error, answerI18n(context));
    const mapped = toFailure(error, { tenant: tenant?.id ?? '-', operation });
    if (mapped.status >= 500) {
      logError('booking.endpoint', {
        tenant: tenant?.id,
        path: context.url.pathname,
        requestId: context.locals.requestId,
      });
    }
    return failure(mapped, answerI18n(context));
  }
}

/** Reads a JSON body; anything else is a 400 with a plain message. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new BookingFailure(400, {
      code: 'bad_request',
      message: textKey('booking.error.badJson'),
    });
  }
}

/**
 * "Find my booking": e-mails the link to the address the booking was made with, after the answer,
 * so the answer (and its timing) is the same whether or not the booking exists.
 */
export function findAndMail(
  context: Pick<APIContext, 'locals'>,
  service: BookingService,
  email: string,
  reference: string,
): Promise<void> {
  const run = async () => {
    const booking = await service.findStay(email, reference);
    if (!booking) return;
    const booked = booking.reference ?? String(booking.id);
    const path = managePath(service.tenant.id, {
      propertyId: String(booking.property_id ?? ''),
      checkIn: booking.check_in,
      reference: booked,
    });
    const links = mailLinks(context, path);
    // At most a few link mails per address and per booking: many finds (from many addresses)
    // cannot fill one guest's inbox. The answer was given before: it is the same either way.
    if (!links || !(await mayMailLink(service.tenant.id, email, booked))) return;
    await service.mailLink({ booking, to: email, guestName: '', ...links });
  };
  return run().catch((error: unknown) => {
    logError('booking.find_failed', { tenant: service.tenant.id }, error);
  });
}
