import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryAfterFromMs } from '../failures/wait.ts';
import { sharedLimiter } from '../upstream/redis.ts';
import { memo } from '../memo.ts';

/**
 * Per-visitor limits of the site's own forms and endpoints (sign-in, comments, bookings): one
 * factory, shared across instances through Redis when a URL is given, in memory otherwise.
 */

/** Attempts one visitor may make per window (`duration`, in seconds). */
export type VisitorLimit = { points: number; duration: number };

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The limiter named `prefix` (one per process); the first call's settings win. */
export const visitorLimiter = memo(
  (
    prefix: string,
    limit: VisitorLimit,
    redisUrl: string | undefined,
  ): Promise<RateLimiterAbstract> =>
    sharedLimiter({ ...limit, keyPrefix: `masthead:${prefix}` }, redisUrl),
  { max: 100 },
);

/** Spends one attempt of `key`; a refusal says when the next attempt will be accepted. */
export async function consumeLimit(
  limiter: Promise<RateLimiterAbstract> | RateLimiterAbstract,
  key: string,
): Promise<LimitOutcome> {
  try {
    await (await limiter).consume(key);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return { ok: false, retryAfterSeconds: retryAfterFromMs(error.msBeforeNext) };
  }
}

export interface ClientAddressSource {
  request: Request;
  /** Astro's `clientAddress` getter throws where no socket address exists (prerendering). */
  readonly clientAddress: string;
}

/** The visitor's address: the proxy's `X-Forwarded-For` only when the proxy is trusted. */
export function clientIp(context: ClientAddressSource, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = context.request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
}
