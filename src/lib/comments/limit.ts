import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { getRedis } from '../upstream/redis.ts';

export interface CommentLimit {
  /** Comments one address may post per window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
}

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Spends one point for `key`; a refusal says when the next comment will be accepted. */
export type ConsumeLimit = (key: string) => Promise<LimitOutcome>;

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * A person writes a few comments in ten minutes, not dozens: this stops a flood from one address
 * before it reaches the moderation queue or spends the tenant's upstream budget.
 */
export function defaultCommentLimit(): CommentLimit {
  return { points: envInt('COMMENTS_PER_IP_PER_10_MIN', 10), duration: 600 };
}

/** Wraps a rate-limiter-flexible limiter as `ConsumeLimit`. */
export function consumeWith(
  limiter: Promise<RateLimiterAbstract> | RateLimiterAbstract,
): ConsumeLimit {
  return async (key) => {
    try {
      await (await limiter).consume(key);
      return { ok: true };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
    }
  };
}

/** In-process limiter (tests, and the fallback of the shared one). */
export function memoryCommentLimiter(limit: CommentLimit): ConsumeLimit {
  return consumeWith(new RateLimiterMemory({ ...limit, keyPrefix: 'masthead:comments' }));
}

/** Shared through Redis when `redisUrl` is set (several instances count together), else in memory. */
export function commentLimiter(limit: CommentLimit, redisUrl: string | undefined): ConsumeLimit {
  if (!redisUrl) return memoryCommentLimiter(limit);
  const base = { ...limit, keyPrefix: 'masthead:comments' };
  return consumeWith(
    getRedis(redisUrl).then(
      (storeClient) =>
        new RateLimiterRedis({
          ...base,
          storeClient,
          insuranceLimiter: new RateLimiterMemory(base),
        }),
    ),
  );
}

/** The limiter key: per tenant and client address, so tenants never share a visitor's allowance. */
export function limitKey(tenantId: string, clientAddress: string): string {
  return `${tenantId}|${clientAddress}`;
}
