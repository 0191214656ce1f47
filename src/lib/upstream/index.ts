/** What pages need from the upstream layer. */
export {
  UpstreamError,
  UnauthenticatedError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  RateLimitedError,
  UpstreamServerError,
  TimeoutError,
  NetworkError,
  InvalidResponseError,
  isOutage,
} from './errors.ts';
export type { UpstreamService } from './errors.ts';
export { createUpstream, defaultUpstream, upstreamOptionsFromEnv } from './runtime.ts';
export type { Upstream, UpstreamOptions, CachedReadOptions } from './runtime.ts';
export { DEFAULT_LIMITS } from './budget.ts';
export type { BudgetLimits } from './budget.ts';
export { TTL } from './ttl.ts';
export type { CachePolicy } from './ttl.ts';
export type { Paged, PageInfo } from './parse.ts';
export type { MetricsSnapshot, Counters } from './metrics.ts';

import { defaultUpstream } from './runtime.ts';
import type { MetricsSnapshot } from './metrics.ts';

/** Counters of the process-wide upstream, JSON-able (for a status endpoint). */
export function getStatus(): MetricsSnapshot {
  return defaultUpstream().metrics.getStatus();
}
