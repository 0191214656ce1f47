import { join } from 'node:path';
import { settingDefaults } from '../settings/schema.ts';
import { createBudget, createVisitorAllowance } from './budget.ts';
import type { AllowanceOptions, Budget, BudgetOptions } from './budget.ts';
import { createReadCache } from './cache.ts';
import type { CacheOptions } from './cache.ts';
import { DEFAULT_HTTP_SETTINGS } from './http.ts';
import type { HttpSettings } from './http.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { runAsVisitor, visitorFor } from './visitor.ts';

/**
 * Everything the clients share in one process: the rate budget, the read cache, the metrics and
 * the HTTP settings. The site uses one per process (`siteUpstream()` in services/clients.ts,
 * configured from its settings); tests and benches make their own with lowered limits.
 */
export type Upstream = ReturnType<typeof createUpstream>;

export interface UpstreamOptions
  extends
    Pick<
      BudgetOptions,
      'limits' | 'safetyRatio' | 'windowSeconds' | 'redisUrl' | 'writeReserve' | 'bookingReserve'
    >,
    Pick<AllowanceOptions, 'visitorShare' | 'humanReserve' | 'lodgingSearchShare'>,
    Pick<CacheOptions, 'now'> {
  http?: Partial<HttpSettings> | undefined;
  metrics?: Metrics | undefined;
  /** A page's whole budget for upstream calls, retries included (default 4000 ms). */
  pageDeadlineMs?: number | undefined;
  /** The read cache's; its `redisUrl` (an evicting one) is the guards' `redisUrl` when absent. */
  cache?: Omit<CacheOptions, 'metrics' | 'now'> | undefined;
}

export function createUpstream(options: UpstreamOptions = {}) {
  const metrics: Metrics = options.metrics ?? createMetrics();
  const { limits, safetyRatio, windowSeconds, writeReserve, bookingReserve, redisUrl } = options;
  const budgetOptions = { limits, safetyRatio, windowSeconds, writeReserve, bookingReserve };
  // Beside the cached values: a restart within a window remembers what it already sent.
  const logFile = options.cache?.diskDir && join(options.cache.diskDir, 'budget.json');
  const budget: Budget = createBudget({ ...budgetOptions, redisUrl, logFile });
  return {
    metrics,
    budget,
    /** Per-visitor shares of the shared buckets (see `budget.ts`); its options are among these. */
    allowance: createVisitorAllowance(budget, options),
    /** One deadline per page render, from its start (see `visitor.ts`). */
    pageDeadlineMs: options.pageDeadlineMs ?? settingDefaults.PAGE_DEADLINE_MS,
    cache: createReadCache({
      ...options.cache,
      metrics,
      redisUrl: options.cache?.redisUrl ?? redisUrl,
      now: options.now,
    }),
    http: { ...DEFAULT_HTTP_SETTINGS, ...options.http },
  };
}

/**
 * Runs a page render as one visitor with one deadline: its cache misses are charged to the
 * visitor's allowance and no upstream call outlives `pageDeadlineMs` from now.
 */
export function runForVisitor<T>(
  up: Upstream,
  clientIp: string,
  userAgent: string | null,
  render: () => T,
): T {
  return runAsVisitor(visitorFor(clientIp, userAgent, Date.now() + up.pageDeadlineMs), render);
}
