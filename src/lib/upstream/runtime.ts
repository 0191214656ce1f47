import type { z } from 'zod';
import { createBudget, createVisitorAllowance } from './budget.ts';
import type { Budget, BudgetLimits, VisitorAllowance } from './budget.ts';
import { cacheKey, createReadCache, DEFAULT_CACHE_MAX_BYTES } from './cache.ts';
import type { CacheKeyParts, ReadCache } from './cache.ts';
import { InvalidResponseError } from './errors.ts';
import { DEFAULT_HTTP_SETTINGS, sendRequest } from './http.ts';
import type { HttpSettings, UpstreamRequest } from './http.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { parseOrThrow } from './parse.ts';
import type { CachePolicy } from './ttl.ts';
import { runAsVisitor, visitorFor } from './visitor.ts';

/**
 * Everything the clients share in one process: the rate budget, the read cache, the metrics and
 * the HTTP settings. Pages use the default one (configured from env); tests make their own with
 * lowered limits.
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

export interface UpstreamOptions {
  limits?: Partial<BudgetLimits> | undefined;
  safetyRatio?: number | undefined;
  http?: Partial<HttpSettings> | undefined;
  cacheMaxBytes?: number | undefined;
  redisUrl?: string | undefined;
  metrics?: Metrics | undefined;
  now?: () => number;
  /** Share of a shared bucket one visitor may spend per window (default 0.25). */
  visitorShare?: number | undefined;
  /** Share of a shared bucket crawlers leave to humans (default 0.3). */
  humanReserve?: number | undefined;
  /** A page's whole budget for upstream calls, retries included (default 4000 ms). */
  pageDeadlineMs?: number | undefined;
  /** How long an upstream 404 is remembered (default 60 s). */
  notFoundSeconds?: number | undefined;
}

export const DEFAULT_PAGE_DEADLINE_MS = 4000;

export function createUpstream(options: UpstreamOptions = {}): Upstream {
  const metrics = options.metrics ?? createMetrics();
  const budget = createBudget({
    ...(options.limits && { limits: options.limits }),
    ...(options.safetyRatio !== undefined && { safetyRatio: options.safetyRatio }),
    redisUrl: options.redisUrl,
  });
  return {
    metrics,
    budget,
    allowance: createVisitorAllowance(budget, {
      visitorShare: options.visitorShare,
      humanReserve: options.humanReserve,
      redisUrl: options.redisUrl,
    }),
    pageDeadlineMs: options.pageDeadlineMs ?? DEFAULT_PAGE_DEADLINE_MS,
    cache: createReadCache({
      metrics,
      maxSizeBytes: options.cacheMaxBytes,
      redisUrl: options.redisUrl,
      notFoundSeconds: options.notFoundSeconds,
      ...(options.now ? { now: options.now } : {}),
    }),
    http: { ...DEFAULT_HTTP_SETTINGS, ...options.http },
  };
}

/** A share between 0 (exclusive) and 1 from the environment. */
function envShare(name: string): number | undefined {
  const value = envNumber(name);
  return value !== undefined && value <= 1 ? value : undefined;
}

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Options from the environment (see the README of this folder for the list). */
export function upstreamOptionsFromEnv(): UpstreamOptions {
  const limits: Partial<BudgetLimits> = {};
  const publicPerMinute = envNumber('PUBLISHING_PUBLIC_PER_MINUTE');
  const tokenPerMinute = envNumber('PUBLISHING_TOKEN_PER_MINUTE');
  const lodgingPerMinute = envNumber('LODGING_PER_MINUTE');
  if (publicPerMinute) limits.publishingPublicPerMinute = publicPerMinute;
  if (tokenPerMinute) limits.publishingTokenPerMinute = tokenPerMinute;
  if (lodgingPerMinute) limits.lodgingPerMinute = lodgingPerMinute;
  const http: Partial<HttpSettings> = {};
  const timeoutMs = envNumber('UPSTREAM_TIMEOUT_MS');
  if (timeoutMs) http.timeoutMs = timeoutMs;
  return {
    redisUrl: process.env['REDIS_URL'] || undefined,
    cacheMaxBytes: envNumber('UPSTREAM_CACHE_MAX_BYTES') ?? DEFAULT_CACHE_MAX_BYTES,
    http,
    limits,
    safetyRatio: envNumber('UPSTREAM_BUDGET_RATIO'),
    visitorShare: envShare('UPSTREAM_VISITOR_SHARE'),
    humanReserve: envShare('UPSTREAM_HUMAN_RESERVE'),
    pageDeadlineMs: envNumber('PAGE_DEADLINE_MS'),
    notFoundSeconds: envNumber('UPSTREAM_NOT_FOUND_SECONDS'),
  };
}

let defaultInstance: Upstream | undefined;

/** The process-wide upstream, created from env on first use. */
export function defaultUpstream(): Upstream {
  defaultInstance ??= createUpstream(upstreamOptionsFromEnv());
  return defaultInstance;
}

/** Sends `req` and parses the body with `schema`; a mismatch is counted, logged and thrown. */
export async function fetchParsed<S extends z.ZodType>(
  up: Upstream,
  req: UpstreamRequest,
  schema: S,
): Promise<z.output<S>> {
  const response = await sendRequest(
    { budget: up.budget, allowance: up.allowance, metrics: up.metrics, settings: up.http },
    req,
  );
  try {
    return parseOrThrow(schema, response.data, { service: req.service, operation: req.operation });
  } catch (error) {
    if (error instanceof InvalidResponseError) up.metrics.failure(req.tenant, error);
    throw error;
  }
}

export interface CachedReadOptions {
  /** Skip the cache read; the fresh value is still stored. */
  fresh?: boolean | undefined;
}

/** A cached read: key from `parts`, policy from `ttl.ts`, `load` only on a miss or refresh. */
export function cachedRead<T>(
  up: Upstream,
  parts: CacheKeyParts,
  policy: CachePolicy,
  load: () => Promise<T>,
  options: CachedReadOptions = {},
): Promise<T> {
  return up.cache.read(
    cacheKey(parts),
    policy,
    load,
    { service: parts.service, tenant: parts.tenant },
    { bypass: options.fresh },
  );
}

/**
 * Runs a page render as one visitor with one deadline: its cache misses are charged to the
 * visitor's allowance and no upstream call outlives `pageDeadlineMs` from now.
 */
export function runForVisitor<T>(
  clientIp: string,
  userAgent: string | null,
  render: () => T,
  up: Upstream = defaultUpstream(),
): T {
  return runAsVisitor(visitorFor(clientIp, userAgent, Date.now() + up.pageDeadlineMs), render);
}
