import {
  addressKey,
  consumeLimit,
  refundLimit,
  visitorLimiter,
} from '../request/visitor-limits.ts';
import type { LimitOutcome } from '../request/visitor-limits.ts';

/** Spends one point for `key`; a refusal says when the next comment will be accepted. */
export interface ConsumeLimit {
  (key: string): Promise<LimitOutcome>;
  /** Gives the point back: the send it was spent on was not stored (refused, never sent). */
  refund?: (key: string) => Promise<void>;
}

/**
 * `perTenMinutes` comments per visitor: a person writes a few in ten minutes, not dozens, so a
 * flood from one address stops before it reaches the moderation queue or spends the tenant's
 * upstream budget. Shared through Redis when `redisUrl` is set (instances count together).
 */
export function commentLimiter(perTenMinutes: number, redisUrl: string | undefined): ConsumeLimit {
  const limiter = () =>
    visitorLimiter('comments', { points: perTenMinutes, duration: 600 }, redisUrl);
  const consume: ConsumeLimit = (key) => consumeLimit(limiter(), key);
  consume.refund = (key) => refundLimit(limiter(), key);
  return consume;
}

/** The limiter key: per tenant and visitor (an IPv6 /64), so tenants never share an allowance. */
export function limitKey(tenantId: string, clientAddress: string): string {
  return `${tenantId}|${addressKey(clientAddress)}`;
}
