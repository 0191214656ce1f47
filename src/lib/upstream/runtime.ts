import { createBudget } from './budget.ts';
import type { Budget, BudgetLimits } from './budget.ts';
import { createReadCache } from './cache.ts';
import type { ReadCache } from './cache.ts';
import { DEFAULT_HTTP_SETTINGS } from './http.ts';
import type { HttpSettings } from './http.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';

/**
 * Everything the clients share in one process: the rate budget, the read cache, the metrics and
 * the HTTP settings. The site uses one per process (`siteUpstream()` in `site.ts`, configured from
 * its environment); tests and benches make their own with lowered limits.
 */
export interface Upstream {
  budget: Budget;
  cache: ReadCache;
  metrics: Metrics;
  http: HttpSettings;
}

export interface UpstreamOptions {
  limits?: Partial<BudgetLimits> | undefined;
  safetyRatio?: number | undefined;
  http?: Partial<HttpSettings> | undefined;
  cacheMaxBytes?: number | undefined;
  redisUrl?: string | undefined;
  metrics?: Metrics | undefined;
  now?: () => number;
}

export function createUpstream(options: UpstreamOptions = {}): Upstream {
  const metrics = options.metrics ?? createMetrics();
  return {
    metrics,
    budget: createBudget({
      ...(options.limits && { limits: options.limits }),
      ...(options.safetyRatio !== undefined && { safetyRatio: options.safetyRatio }),
      redisUrl: options.redisUrl,
    }),
    cache: createReadCache({
      metrics,
      maxSizeBytes: options.cacheMaxBytes,
      redisUrl: options.redisUrl,
      ...(options.now ? { now: options.now } : {}),
    }),
    http: { ...DEFAULT_HTTP_SETTINGS, ...options.http },
  };
}
