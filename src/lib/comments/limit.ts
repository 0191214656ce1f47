import { RateLimiterMemory } from 'rate-limiter-flexible';
import { addressKey, consumeLimit, visitorLimiter } from '../request/visitor-limits.ts';
import type { LimitOutcome, VisitorLimit } from '../request/visitor-limits.ts';

/** Spends one point for `key`; a refusal says when the next comment will be accepted. */
export type ConsumeLimit = (key: string) => Promise<LimitOutcome>;

/**
 * A person writes a few comments in ten minutes, not dozens: this stops a flood from one address
 * before it reaches the moderation queue or spends the tenant's upstream budget.
 */
export function commentLimit(perTenMinutes: number): VisitorLimit {
  return { points: perTenMinutes, duration: 600 };
}

/** In-process limiter of its own (tests). */
export function memoryCommentLimiter(limit: VisitorLimit): ConsumeLimit {
  const limiter = new RateLimiterMemory({ ...limit, keyPrefix: 'masthead:comments' });
  return (key) => consumeLimit(limiter, key);
}

/** Shared through Redis when `redisUrl` is set (several instances count together), else in memory. */
export function commentLimiter(limit: VisitorLimit, redisUrl: string | undefined): ConsumeLimit {
  return (key) => consumeLimit(visitorLimiter('comments', limit, redisUrl), key);
}

/** The limiter key: per tenant and visitor (an IPv6 /64), so tenants never share an allowance. */
export function limitKey(tenantId: string, clientAddress: string): string {
  return `${tenantId}|${addressKey(clientAddress)}`;
}
