import type { z } from 'zod';
import { createBudget } from './budget.ts';
import type { Budget, BudgetLimits } from './budget.ts';
import { cacheKey, createReadCache, DEFAULT_CACHE_MAX_BYTES } from './cache.ts';
import type { CacheKeyParts, ReadCache } from './cache.ts';
import { InvalidResponseError } from './errors.ts';
import { DEFAULT_HTTP_SETTINGS, sendRequest } from './http.ts';
import type { HttpSettings, UpstreamRequest } from './http.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { parseOrThrow } from './parse.ts';
import type { CachePolicy } from './ttl.ts';

/**
 * Everything the clients share in one process: the rate budget, the read cache, the metrics and
 * the HTTP settings. Pages use the default one (configured from env); tests make their own with
 * lowered limits.
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

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Options from the environment (listed under "Environment variables" in the README). */
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
    { budget: up.budget, metrics: up.metrics, settings: up.http },
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
