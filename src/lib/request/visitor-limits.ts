import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryAfterFromMs } from '../failures/wait.ts';
import { sharedLimiter } from '../upstream/redis.ts';
import { memo } from '../memo.ts';
import { isIP } from 'node:net';

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

/** Gives back one attempt of `key` (one spent on something that turned out not to count). */
export async function refundLimit(
  limiter: Promise<RateLimiterAbstract> | RateLimiterAbstract,
  key: string,
): Promise<void> {
  await (await limiter).reward(key, 1);
}

/**
 * Whose attempts a per-visitor limit counts together: an IPv4 address, or an IPv6 address's /64
 * network. One IPv6 connection (a home line, a rented server) owns a whole /64, so each of its
 * addresses counting alone would give one visitor billions of fresh limits. An IPv4-mapped IPv6
 * address is its IPv4.
 */
export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  if (isIP(plain) !== 6) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = plain.split('::');
  const groups = (text: string) => (text ? text.split(':') : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const full = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${full
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export interface ClientAddressSource {
  request: Request;
  /** Astro's `clientAddress` getter throws where no socket address exists (prerendering). */
  readonly clientAddress: string;
}

/**
 * The visitor's address: behind `trustProxy` proxies (`true` is one), the `X-Forwarded-For` entry the
 * first of them wrote, counted from the end; the entries before it are what the visitor sent.
 */
export function clientIp(context: ClientAddressSource, trustProxy: boolean | number): string {
  if (trustProxy) {
    const forwarded = context.request.headers.get('x-forwarded-for')?.split(',') ?? [];
    const written = forwarded.at(-Number(trustProxy))?.trim() ?? forwarded[0]?.trim();
    if (written) return written;
  }
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
}
