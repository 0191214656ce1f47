import { settings } from '../settings/settings.ts';
import type { MetricsSnapshot } from './metrics.ts';
import { createUpstream } from './runtime.ts';
import type { Upstream } from './runtime.ts';

/**
 * The running site's upstream (one per process), configured from its settings. Only Astro-side code
 * imports this file: clients, tests and benches take an `Upstream` as an argument.
 */

let instance: Upstream | undefined;

/** Created on first use, from the settings (their defaults are in `settings/schema.ts`). */
export function siteUpstream(): Upstream {
  const current = settings();
  instance ??= createUpstream({
    redisUrl: current.REDIS_URL,
    cacheMaxBytes: current.UPSTREAM_CACHE_MAX_BYTES,
    http: { timeoutMs: current.UPSTREAM_TIMEOUT_MS },
    limits: {
      publishingPublicPerMinute: current.PUBLISHING_PUBLIC_PER_MINUTE,
      publishingTokenPerMinute: current.PUBLISHING_TOKEN_PER_MINUTE,
      lodgingPerMinute: current.LODGING_PER_MINUTE,
    },
    safetyRatio: current.UPSTREAM_BUDGET_RATIO,
    visitorShare: current.UPSTREAM_VISITOR_SHARE,
    humanReserve: current.UPSTREAM_HUMAN_RESERVE,
    pageDeadlineMs: current.PAGE_DEADLINE_MS,
    notFoundSeconds: current.UPSTREAM_NOT_FOUND_SECONDS,
  });
  return instance;
}

/** Counters of the site's upstream, JSON-able (for `/_status`). */
export function upstreamStatus(): MetricsSnapshot {
  return siteUpstream().metrics.getStatus();
}
