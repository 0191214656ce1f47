import type { APIContext } from 'astro';
import { settings } from '../settings/settings.ts';
import type { I18n } from '../i18n/index.ts';
import { localize, localizeFields } from '../i18n/text.ts';
import { widgetI18n } from '../i18n/widget.ts';
import { logError } from '../log/log.ts';
import { clientIp, consumeLimit, visitorLimiter } from '../request/visitor-limits.ts';
import { bookingTenant } from '../tenants/booking.ts';
import { BookingFailure, busy, notOffered, toFailure } from './failures.ts';
import { bookingServiceFor } from '../site/clients.ts';
import type { BookingService } from './service.ts';
import type { ApiResult } from './types.ts';
import { textKey } from '../i18n/text-key.ts';
const { BOOKING_PER_IP_PER_10_MIN, BOOKING_SEARCHES_PER_IP_PER_MIN, REDIS_URL, TRUST_PROXY } =
  settings();

/** Shared plumbing of the `/api/booking/*` endpoints: JSON answers, origin check, per-IP limits. */

const LIMITS = {
  // Creating bookings: a person books a handful of stays, not dozens, from one address.
  book: { points: BOOKING_PER_IP_PER_10_MIN, duration: 600 },
  // Searches: generous, but one visitor must not spend the tenant's whole upstream budget.
  search: { points: BOOKING_SEARCHES_PER_IP_PER_MIN, duration: 60 },
} as const;
type LimitKind = keyof typeof LIMITS;

export function json<T>(
  body: ApiResult<T>,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'private, no-store',
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

/**
 * The language of the answer: the first `Accept-Language` tag (the widget sends its own locale,
 * which an embed's `data-locale` may set), else the tenant's.
 */
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

/** The site's own origin as the browser sees it (proxy headers only when trusted). */
function ownOrigin(context: APIContext): string {
  if (TRUST_PROXY) {
    const host = context.request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
    const proto = context.request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    if (host) return `${proto || context.url.protocol.replace(':', '')}://${host}`;
  }
  return context.url.origin;
}

/**
 * `checkOrigin` covers form posts only: a JSON POST must come from a page of this site (the
 * on-site widget or the same-origin embed iframe), with a JSON body.
 */
export function assertSameOrigin(context: APIContext): void {
  const origin = context.request.headers.get('origin');
  const type = context.request.headers.get('content-type') ?? '';
  if (origin !== ownOrigin(context) || !type.startsWith('application/json')) {
    throw new BookingFailure(403, {
      code: 'forbidden',
      message: textKey('booking.error.forbidden'),
    });
  }
}

export async function limit(context: APIContext, kind: LimitKind): Promise<void> {
  const key = `${context.locals.site?.tenant.id ?? '-'}|${clientIp(context, TRUST_PROXY)}`;
  const outcome = await consumeLimit(
    visitorLimiter(`booking:${kind}`, LIMITS[kind], REDIS_URL),
    key,
  );
  if (outcome.ok) return;
  const wait = outcome.retryAfterSeconds;
  throw busy(
    kind === 'book'
      ? textKey('booking.error.tooManyBookings', { wait })
      : textKey('booking.error.tooManySearches', { wait }),
    wait,
  );
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
