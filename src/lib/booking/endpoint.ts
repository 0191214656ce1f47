import type { APIContext } from 'astro';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { REDIS_URL, TRUST_PROXY } from 'astro:env/server';
import { logError } from '../log.ts';
import { getRedis } from '../upstream/redis.ts';
import { BookingFailure, bookingServiceFor, toFailure } from './service.ts';
import type { BookingService } from './service.ts';
import type { ApiResult } from './types.ts';

/** Shared plumbing of the `/api/booking/*` endpoints: JSON answers, origin check, per-IP limits. */

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const LIMITS = {
  // Creating bookings: a person books a handful of stays, not dozens, from one address.
  book: { points: envInt('BOOKING_PER_IP_PER_10_MIN', 10), duration: 600 },
  // Searches: generous, but one visitor must not spend the tenant's whole upstream budget.
  search: { points: envInt('BOOKING_SEARCHES_PER_IP_PER_MIN', 30), duration: 60 },
} as const;
type LimitKind = keyof typeof LIMITS;

const limiters = new Map<LimitKind, Promise<RateLimiterAbstract>>();

/** Per-IP limiters, shared across instances through Redis when `REDIS_URL` is set. */
function limiter(kind: LimitKind): Promise<RateLimiterAbstract> {
  let found = limiters.get(kind);
  if (!found) {
    const base = { ...LIMITS[kind], keyPrefix: `masthead:booking:${kind}` };
    const redisUrl = REDIS_URL;
    found = redisUrl
      ? getRedis(redisUrl).then(
          (storeClient) =>
            new RateLimiterRedis({
              ...base,
              storeClient,
              insuranceLimiter: new RateLimiterMemory(base),
            }),
        )
      : Promise.resolve(new RateLimiterMemory(base));
    limiters.set(kind, found);
  }
  return found;
}

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

export function failure(error: BookingFailure): Response {
  const headers: Record<string, string> = {};
  if (error.error.retryAfter !== undefined) headers['Retry-After'] = String(error.error.retryAfter);
  return json({ ok: false, error: error.error }, error.status, headers);
}

function clientIp(context: APIContext): string {
  if (TRUST_PROXY) {
    const forwarded = context.request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
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
    throw new BookingFailure(403, { code: 'forbidden', message: 'This request is not allowed.' });
  }
}

export async function limit(context: APIContext, kind: LimitKind): Promise<void> {
  const key = `${context.locals.site?.tenant.id ?? '-'}|${clientIp(context)}`;
  try {
    await (await limiter(kind)).consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new BookingFailure(429, {
      code: 'busy',
      message:
        kind === 'book'
          ? `Too many bookings from your connection. Please try again in ${retryAfter} s.`
          : `Too many searches. Please try again in ${retryAfter} s.`,
      retryAfter,
    });
  }
}

/** Runs a handler with the tenant's booking service; every failure becomes a JSON answer. */
export async function handle<T>(
  context: APIContext,
  operation: string,
  run: (service: BookingService) => Promise<T>,
): Promise<Response> {
  const tenant = context.locals.site?.tenant;
  try {
    if (!tenant?.features.booking || !tenant.lodging) {
      throw new BookingFailure(404, { code: 'not_found', message: 'Booking is not offered here.' });
    }
    const data = await run(bookingServiceFor(tenant));
    return json({ ok: true, data });
  } catch (error) {
    if (error instanceof BookingFailure) return failure(error);
    const mapped = toFailure(error, { tenant: tenant?.id ?? '-', operation });
    if (mapped.status >= 500) {
      logError('booking.endpoint', {
        tenant: tenant?.id,
        path: context.url.pathname,
        requestId: context.locals.requestId,
      });
    }
    return failure(mapped);
  }
}

/** Reads a JSON body; anything else is a 400 with a plain message. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new BookingFailure(400, {
      code: 'bad_request',
      message: 'The request was not valid JSON.',
    });
  }
}
