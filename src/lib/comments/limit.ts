import {
  addressKey,
  consumeLimit,
  refundLimit,
  visitorLimiter,
} from '../request/visitor-limits.ts';
import type { LimitOutcome, VisitorLimit } from '../request/visitor-limits.ts';

/** Spends one point for `key`; a refusal says when the next comment will be accepted. */
export interface ConsumeLimit {
  (key: string): Promise<LimitOutcome>;
  /** Gives the point back: the send it was spent on was not stored (refused, never sent). */
  refund?: (key: string) => Promise<void>;
}

/**
 * A person writes a few comments in ten minutes, not dozens: this stops a flood from one address
 * before it reaches the moderation queue or spends the tenant's upstream budget.
 */
export function commentLimit(perTenMinutes: number): VisitorLimit {
  return { points: perTenMinutes, duration: 600 };
}

/** Shared through Redis when `redisUrl` is set (several instances count together), else in memory. */
export function commentLimiter(limit: VisitorLimit, redisUrl: string | undefined): ConsumeLimit {
  const limiter = (): ReturnType<typeof visitorLimiter> =>
    visitorLimiter('comments', limit, redisUrl);
  const consume: ConsumeLimit = (key) => consumeLimit(limiter(), key);
  consume.refund = (key) => refundLimit(limiter(), key);
  return consume;
}

/** The limiter key: per tenant and visitor (an IPv6 /64), so tenants never share an allowance. */
export function limitKey(tenantId: string, clientAddress: string): string {
  return `${tenantId}|${addressKey(clientAddress)}`;
}
