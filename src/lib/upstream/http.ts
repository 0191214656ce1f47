import { settingDefaults } from '../settings/schema.ts';
import { ofetch } from 'ofetch';
import type { FetchOptions } from 'ofetch';
import type { Budget, BudgetKey, Priority, RateInfo, VisitorAllowance } from './budget.ts';
import {
  errorFromStatus,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  UpstreamError,
} from './errors.ts';
import type { UpstreamService } from './errors.ts';
import type { Metrics } from './metrics.ts';
import { currentVisitor } from './visitor.ts';
import type { VisitorContext } from './visitor.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface HttpSettings {
  /** Whole-call timeout per attempt, headers and body included. */
  timeoutMs: number;
  /** Extra attempts for GET only. Writes are never retried: a lost response may still have written. */
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A `Retry-After` longer than this is not waited for: the call fails with the typed error. */
  retryAfterCapMs: number;
  /**
   * Retry a GET answered 429 (within `retryAfterCapMs`). Off for the site: its budget stays shut
   * after a 429 until the upstream's window is surely clear (budget.ts), far past any wait a page
   * can afford, so the retry could only be refused. A build's pacing budget waits instead: on.
   */
  retryRateLimited: boolean;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  timeoutMs: settingDefaults.UPSTREAM_TIMEOUT_MS,
  maxRetries: 2,
  backoffBaseMs: 200,
  backoffMaxMs: 2000,
  retryAfterCapMs: 3000,
  retryRateLimited: false,
};

/** Statuses worth another GET attempt; everything else is an answer, not a hiccup. */
export const RETRY_STATUS_CODES: ReadonlySet<number> = new Set([
  408, // Request Timeout: the server gave up waiting, a fresh attempt may pass.
  429, // Too Many Requests: only with `retryRateLimited`, when Retry-After fits within `retryAfterCapMs`.
  500, // Internal Server Error: often transient on a loaded upstream; reads are idempotent.
  502, // Bad Gateway: proxy in front of the upstream lost it.
  503, // Service Unavailable: restarting or overloaded, usually with Retry-After.
  504, // Gateway Timeout.
]);

export type QueryValue = string | number | boolean | undefined;

export interface UpstreamRequest {
  service: UpstreamService;
  /** Stable operation name for logs and metrics, e.g. `posts.list`. */
  operation: string;
  /** Tenant id (publishing) or account key (lodging), for metrics and logs. */
  tenant: string;
  baseUrl: string;
  /** Relative to `baseUrl`, e.g. `/posts/hello`. */
  path: string;
  method?: HttpMethod;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  token?: string | undefined;
  budgetKey: BudgetKey;
  timeoutMs?: number | undefined;
}

export interface UpstreamResponse {
  status: number;
  /** Parsed JSON body, `undefined` when empty. */
  data: unknown;
  headers: Headers;
}

export interface HttpDeps {
  budget: Budget;
  metrics: Metrics;
  settings: HttpSettings;
  /** Per-visitor shares of the shared buckets, charged before them (calls made for a visitor only). */
  allowance?: VisitorAllowance | undefined;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

function numberHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** `Retry-After` as seconds (delta-seconds or HTTP date). */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function rateInfo(headers: Headers, status: number): RateInfo {
  return {
    rateLimited: status === 429,
    limit: numberHeader(headers, 'x-ratelimit-limit'),
    remaining: numberHeader(headers, 'x-ratelimit-remaining'),
    resetAt: numberHeader(headers, 'x-ratelimit-reset'),
    // Retry-After blocks the bucket only on 429; on 503 it is about the server, not our share.
    retryAfterSeconds: status === 429 ? parseRetryAfter(headers.get('retry-after')) : undefined,
  };
}

/**
 * Whose claim on the budget a call is (see `Priority`): the change watchers' and spare reads' last,
 * sign-ins, comments and the booking step (writes) first, pages in between.
 */
export function priorityOf(method: HttpMethod, visitor: VisitorContext | undefined): Priority {
  if (visitor?.background) return 'background';
  if (method !== 'GET' || visitor?.bookingStep) return 'write';
  // A refresh of what the cache still holds, or a part the page does without (see `asSpare`).
  return visitor?.spare ? 'background' : 'read';
}

function errorName(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError') return current.name;
    current = current.cause;
  }
  return undefined;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Backoff before attempt `attempt + 1`: full-jitter exponential, never shorter than Retry-After. */
export function retryDelayMs(
  settings: HttpSettings,
  attempt: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number {
  const exp = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** attempt);
  const jittered = exp / 2 + random() * (exp / 2);
  // +50 ms so a 429's budget block (same Retry-After) has surely expired when we try again.
  return retryAfterSeconds === undefined
    ? jittered
    : Math.max(jittered, retryAfterSeconds * 1000 + 50);
}

/**
 * Sends one logical request: the visitor's allowance and the budget first, then up to `maxRetries`
 * extra attempts for GET on a network error, timeout or a status in `RETRY_STATUS_CODES`. Inside a
 * page render (see `visitor.ts`) every attempt ends by the page's deadline and no retry starts that
 * could not finish before it. Every failure leaves as a typed `UpstreamError`, counted and logged once.
 */
export async function sendRequest(deps: HttpDeps, req: UpstreamRequest): Promise<UpstreamResponse> {
  const { budget, metrics, settings } = deps;
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const visitor = currentVisitor();
  const deadline = visitor?.deadline;
  const method = req.method ?? 'GET';
  const retries = method === 'GET' ? settings.maxRetries : 0;
  const ctx = { service: req.service, operation: req.operation };
  const label = `[${req.service}] ${req.operation} ${method} ${req.path}`;
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (req.token !== undefined) headers['Authorization'] = `Bearer ${req.token}`;

  const fail = (error: UpstreamError): never => {
    metrics.failure(req.tenant, error);
    throw error;
  };

  for (let attempt = 0; ; attempt += 1) {
    const left = deadline === undefined ? Infinity : deadline - now();
    if (left <= 0) {
      return fail(new TimeoutError(`${label}: the page deadline passed before this call`, ctx));
    }
    // Writes too: a burst of form posts spends its sender's share, not everyone's reads.
    if (visitor?.visitor !== undefined && deps.allowance) {
      const charge = await deps.allowance.charge(req.budgetKey, {
        visitor: visitor.visitor,
        crawler: visitor.crawler,
        bookingStep: visitor.bookingStep,
      });
      if (!charge.ok) {
        // Counted, not logged line by line: a crawler over its share would flood the log.
        metrics.count(req.service, req.tenant, 'visitorRejected');
        throw new RateLimitedError(
          `${label}: this visitor's share of the upstream budget is spent, retry in ${charge.retryAfterSeconds}s`,
          { ...ctx, status: 429 },
          charge.retryAfterSeconds,
          true,
        );
      }
    }
    const priority = priorityOf(method, visitor);
    const spend = await budget.take(req.budgetKey, priority);
    if (!spend.ok) {
      metrics.count(req.service, req.tenant, 'budgetRejected');
      const refused = new RateLimitedError(
        `${label}: local rate budget spent, retry in ${spend.retryAfterSeconds}s`,
        { ...ctx, status: 429 },
        spend.retryAfterSeconds,
        true,
      );
      // A watcher waiting its turn behind readers is the design, not a failure worth a line.
      if (priority === 'background') throw refused;
      return fail(refused);
    }
    metrics.count(req.service, req.tenant, 'upstreamCalls');

    let error: UpstreamError;
    let retryAfterSeconds: number | undefined;
    const timeoutMs = Math.min(req.timeoutMs ?? settings.timeoutMs, left);
    try {
      const options: FetchOptions<'text'> = {
        baseURL: req.baseUrl,
        method,
        headers,
        retry: false,
        ignoreResponseError: true,
        responseType: 'text',
        // Our own signal so the body read is inside the timeout too.
        signal: AbortSignal.timeout(timeoutMs),
      };
      if (req.query) options.query = req.query;
      if (req.body !== undefined) options.body = req.body as Record<string, unknown>;
      const response = await ofetch.raw(req.path, options);
      const { status } = response;
      metrics.answered(req.service, req.tenant, req.operation, String(status));
      await budget.observe(req.budgetKey, rateInfo(response.headers, status));
      const parsed = tryJson(response._data ?? '');
      if (status >= 200 && status < 300) {
        if (!parsed.ok) {
          return fail(
            new InvalidResponseError(
              `${label}: ${status} body is not JSON`,
              ctx,
              'body is not JSON',
            ),
          );
        }
        return { status, data: parsed.value, headers: response.headers };
      }
      if (status === 429) metrics.count(req.service, req.tenant, 'rateLimited429');
      retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
      error = errorFromStatus({
        service: req.service,
        operation: req.operation,
        method,
        path: req.path,
        status,
        body: parsed.ok ? parsed.value : undefined,
        retryAfterSeconds,
      });
      if (!RETRY_STATUS_CODES.has(status)) return fail(error);
      if (status === 429 && !settings.retryRateLimited) return fail(error);
    } catch (caught) {
      if (caught instanceof UpstreamError) throw caught;
      const name = errorName(caught);
      metrics.answered(
        req.service,
        req.tenant,
        req.operation,
        name === 'TimeoutError' ? 'timeout' : 'network',
      );
      error =
        name === 'TimeoutError'
          ? new TimeoutError(
              `${label}: no response within ${Math.round(timeoutMs)} ms${timeoutMs < (req.timeoutMs ?? settings.timeoutMs) ? ' (page deadline)' : ''}`,
              {
                ...ctx,
                cause: caught,
              },
            )
          : new NetworkError(
              `${label}: ${caught instanceof Error ? caught.message : 'network error'}`,
              {
                ...ctx,
                cause: caught,
              },
            );
    }

    if (attempt >= retries) return fail(error);
    // Waiting longer than the cap would hold a page render hostage: fail (or serve stale) instead.
    if (retryAfterSeconds !== undefined && retryAfterSeconds * 1000 > settings.retryAfterCapMs) {
      return fail(error);
    }
    const delay = retryDelayMs(settings, attempt, retryAfterSeconds, random);
    // A retry that could not finish before the page's deadline only delays the answer.
    if (deadline !== undefined && now() + delay >= deadline) return fail(error);
    await sleep(delay);
  }
}
