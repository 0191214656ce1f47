import { join } from 'node:path';
import { settingDefaults } from '../settings/schema.ts';
import { createBudget, createVisitorAllowance } from './budget.ts';
import type { AllowanceOptions, Budget, BudgetOptions, VisitorAllowance } from './budget.ts';
import { createReadCache } from './cache.ts';
import type { CacheOptions, ReadCache } from './cache.ts';
import { DEFAULT_HTTP_SETTINGS } from './http.ts';
import type { HttpSettings } from './http.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { runAsVisitor, visitorFor } from './visitor.ts';

/**
 * Everything the clients share in one process: the rate budget, the read cache, the metrics and
 * the HTTP settings. The site uses one per process (`siteUpstream()` in `site.ts`, configured from
 * its environment); tests and benches make their own with lowered limits.
 */
export interface Upstream {
  budget: Budget;
  /** Per-visitor shares of the shared buckets (see `budget.ts`). */
  allowance: VisitorAllowance;
  /** One deadline per page render, from its start (see `visitor.ts`). */
  pageDeadlineMs: number;
  cache: ReadCache;
  metrics: Metrics;
  http: HttpSettings;
}

export interface UpstreamOptions
  extends
    Pick<
      BudgetOptions,
      'limits' | 'safetyRatio' | 'windowSeconds' | 'redisUrl' | 'writeReserve' | 'bookingReserve'
    >,
    Pick<AllowanceOptions, 'visitorShare' | 'humanReserve' | 'lodgingSearchShare'>,
    Pick<CacheOptions, 'notFoundSeconds' | 'now'> {
  http?: Partial<HttpSettings> | undefined;
  cacheMaxBytes?: number | undefined;
  metrics?: Metrics | undefined;
  /** A page's whole budget for upstream calls, retries included (default 4000 ms). */
  pageDeadlineMs?: number | undefined;
  /** The cache's own Redis (evicting), apart from the guards' `redisUrl`; `redisUrl` when absent. */
  cacheRedisUrl?: string | undefined;
  /** Without Redis: the folder the cache keeps values in across restarts (none when absent). */
  cacheDir?: string | undefined;
  cacheDiskMaxBytes?: number | undefined;
}

export function createUpstream(options: UpstreamOptions = {}): Upstream {
  const metrics = options.metrics ?? createMetrics();
  const { limits, safetyRatio, windowSeconds, writeReserve, bookingReserve, redisUrl } = options;
  const reserves = { writeReserve, bookingReserve };
  // Beside the cached values: a restart within a window remembers what it already sent.
  const logFile = options.cacheDir && join(options.cacheDir, 'budget.json');
  const budget = createBudget({
    limits,
    safetyRatio,
    windowSeconds,
    ...reserves,
    redisUrl,
    logFile,
  });
  return {
    metrics,
    budget,
    // Its options are a part of these (`UpstreamOptions`).
    allowance: createVisitorAllowance(budget, options),
    pageDeadlineMs: options.pageDeadlineMs ?? settingDefaults.PAGE_DEADLINE_MS,
    cache: createReadCache({
      metrics,
      maxSizeBytes: options.cacheMaxBytes,
      redisUrl: options.cacheRedisUrl ?? redisUrl,
      diskDir: options.cacheDir,
      diskMaxBytes: options.cacheDiskMaxBytes,
      notFoundSeconds: options.notFoundSeconds,
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
