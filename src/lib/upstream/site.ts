import {
  LODGING_PER_MINUTE,
  PAGE_DEADLINE_MS,
  PUBLISHING_PUBLIC_PER_MINUTE,
  PUBLISHING_TOKEN_PER_MINUTE,
  REDIS_URL,
  UPSTREAM_BUDGET_RATIO,
  UPSTREAM_CACHE_MAX_BYTES,
  UPSTREAM_BOOKING_RESERVE,
  UPSTREAM_HUMAN_RESERVE,
  UPSTREAM_LODGING_SEARCH_SHARE,
  UPSTREAM_NOT_FOUND_SECONDS,
  UPSTREAM_TIMEOUT_MS,
  UPSTREAM_VISITOR_SHARE,
} from 'astro:env/server';
import type { MetricsSnapshot } from './metrics.ts';
import { createUpstream } from './runtime.ts';
import type { Upstream } from './runtime.ts';

/**
 * The running site's upstream (one per process), configured from its environment (declared in
 * `astro.config.mjs`). Only Astro-side code imports this file: clients, tests and benches take an
 * `Upstream` as an argument and never read the environment.
 */

let instance: Upstream | undefined;

/** Created on first use; unset settings keep the defaults of `budget.ts`, `http.ts` and `cache.ts`. */
export function siteUpstream(): Upstream {
  instance ??= createUpstream({
    redisUrl: REDIS_URL,
    cacheMaxBytes: UPSTREAM_CACHE_MAX_BYTES,
    http: { ...(UPSTREAM_TIMEOUT_MS !== undefined && { timeoutMs: UPSTREAM_TIMEOUT_MS }) },
    limits: {
      ...(PUBLISHING_PUBLIC_PER_MINUTE !== undefined && {
        publishingPublicPerMinute: PUBLISHING_PUBLIC_PER_MINUTE,
      }),
      ...(PUBLISHING_TOKEN_PER_MINUTE !== undefined && {
        publishingTokenPerMinute: PUBLISHING_TOKEN_PER_MINUTE,
      }),
      ...(LODGING_PER_MINUTE !== undefined && { lodgingPerMinute: LODGING_PER_MINUTE }),
    },
    safetyRatio: UPSTREAM_BUDGET_RATIO,
    visitorShare: UPSTREAM_VISITOR_SHARE,
    humanReserve: UPSTREAM_HUMAN_RESERVE,
    lodgingSearchShare: UPSTREAM_LODGING_SEARCH_SHARE,
    bookingReserve: UPSTREAM_BOOKING_RESERVE,
    pageDeadlineMs: PAGE_DEADLINE_MS,
    notFoundSeconds: UPSTREAM_NOT_FOUND_SECONDS,
  });
  return instance;
}

/** Counters of the site's upstream, JSON-able (for `/_status`). */
export function upstreamStatus(): MetricsSnapshot {
  return siteUpstream().metrics.getStatus();
}
