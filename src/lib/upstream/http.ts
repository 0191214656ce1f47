import { settingDefaults } from '../settings/schema.ts';
import { FetchError, ofetch } from 'ofetch';
import type { ResolvedFetchOptions } from 'ofetch';
import type { Budget, BudgetKey, Priority, RateInfo, VisitorAllowance } from './budget.ts';
import {
  errorFromStatus,
  InvalidResponseError,
  NetworkError,
  networkReason,
  neverSent,
  NoRouteError,
  RateLimitedError,
  TimeoutError,
  UpstreamError,
} from './errors.ts';
import type { UpstreamService } from './errors.ts';
import type { Metrics } from './metrics.ts';
import { currentVisitor } from './visitor.ts';
import type { VisitorContext } from './visitor.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export const DEFAULT_HTTP_SETTINGS = {
  /** Whole-call timeout per attempt, headers and body included. */
  timeoutMs: settingDefaults.UPSTREAM_TIMEOUT_MS,
  /** A longer answer is refused (`InvalidResponseError`), never held in memory whole. */
  maxBodyBytes: settingDefaults.UPSTREAM_BODY_MAX_BYTES,
  /** Extra attempts for GET only. Writes are never retried: a lost response may still have written. */
  maxRetries: 2,
  backoffBaseMs: 200,
  backoffMaxMs: 2000,
  /** A `Retry-After` longer than this is not waited for: the call fails with the typed error. */
  retryAfterCapMs: 3000,
  /**
   * Retry a GET answered 429 (within `retryAfterCapMs`). Off for the site: a page serves its stale
   * copy or says "busy" rather than wait, and its budget stays shut for the `Retry-After`
   * (budget.ts). A build's pacing budget waits instead: on.
   */
  retryRateLimited: false,
};
export type HttpSettings = typeof DEFAULT_HTTP_SETTINGS;

/** Hiccups worth another GET (ofetch also retries no response); 429 only with `retryRateLimited`. */
const RETRY_STATUS_CODES = [408, 500, 502, 503, 504];

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
  /** Sent as JSON. */
  body?: object | undefined;
  headers?: Record<string, string>;
  token?: string | undefined;
  budgetKey: BudgetKey;
}

/** What a call rides on: an `Upstream` (./runtime.ts) is one. */
export interface HttpDeps {
  budget: Budget;
  metrics: Metrics;
  http: HttpSettings;
  /** Per-visitor shares of the shared buckets, charged before them (calls made for a visitor only). */
  allowance?: VisitorAllowance | undefined;
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * `Retry-After` as seconds (delta-seconds or HTTP date). A date is counted from the answer's own
 * `Date` (the upstream's clock), so a clock skew between us and the API neither stretches the wait
 * (theirs ahead) nor voids it (theirs behind); from ours only when the answer has no `Date`.
 */
function parseRetryAfter(headers: Headers): number | undefined {
  const seconds = numberHeader(headers, 'retry-after');
  if (seconds !== undefined) return Math.max(0, seconds);
  const date = Date.parse(headers.get('retry-after') ?? '');
  if (Number.isNaN(date)) return undefined;
  const sent = Date.parse(headers.get('date') ?? '');
  const now = Number.isNaN(sent) ? Date.now() : sent;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function rateInfo(headers: Headers, status: number): RateInfo {
  return {
    rateLimited: status === 429,
    limit: numberHeader(headers, 'x-ratelimit-limit'),
    remaining: numberHeader(headers, 'x-ratelimit-remaining'),
    // Retry-After blocks the bucket only on 429; on 503 it is about the server, not our share.
    retryAfterSeconds: status === 429 ? parseRetryAfter(headers) : undefined,
  };
}

/**
 * Whose claim on the budget a call is (see `Priority`): the change watchers' and spare reads' last,
 * sign-ins, comments and the booking step (writes) first, pages in between.
 */
function priorityOf(method: HttpMethod, visitor: VisitorContext | undefined): Priority {
  if (visitor?.background) return 'background';
  if (method !== 'GET' || visitor?.bookingStep) return 'write';
  // A refresh of what the cache still holds, or a part the page does without (see `asSpare`).
  return visitor?.spare ? 'background' : 'read';
}

/** Whether `error` (or a cause of it) is a timeout's abort. */
export const timedOut = (error: unknown, depth = 0): boolean =>
  depth < 4 &&
  error instanceof Error &&
  (error.name === 'TimeoutError' || timedOut(error.cause, depth + 1));

/** What `parseJson` gives for a body that is not JSON (an HTML error page, a cut-off answer). */
const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/**
 * A body of at most `maxBytes`: refused by its `Content-Length`, else counted while it is read, so
 * an answer streamed without end never fills memory; `tooLarge()` is thrown past the limit.
 */
export async function readLimited(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    void response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop (the throw) cancels the stream.
  for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A redirect whose answer is not the call's: a write's (never followed: fetch would send a POST
 * on as a GET, and a write is no read), or where a GET with a token ended on another origin (fetch
 * does not send the token there, e.g. `http://` to `https://`). Either way the tenant's address is
 * what to fix, and nothing was written.
 */
function redirectRefused(
  req: UpstreamRequest,
  method: HttpMethod,
  response: Response,
  label: string,
): NoRouteError | undefined {
  const { status } = response;
  const ctx = { service: req.service, operation: req.operation, status };
  if (method !== 'GET' && status >= 300 && status < 400) {
    const to = new URL(response.headers.get('location') ?? '', response.url);
    const why = `${status} to ${to.origin}${to.pathname}, not followed by a ${method}`;
    return new NoRouteError(`${label}: ${why}: set its baseUrl to where the API answers`, ctx);
  }
  const reached = new URL(response.url).origin;
  if (req.token === undefined || reached === new URL(req.baseUrl).origin) return undefined;
  const why = `redirected to ${reached}, where the token is not sent`;
  return new NoRouteError(`${label}: ${why}: use ${reached} in its baseUrl`, ctx);
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
 * Spends one attempt: the visitor's share, then the budget; a refusal throws `RateLimitedError`.
 * Resolves to what gives both back.
 */
async function spend(
  deps: HttpDeps,
  req: UpstreamRequest,
  priority: Priority,
  visitor: VisitorContext | undefined,
  label: string,
): Promise<() => Promise<unknown>> {
  const { metrics } = deps;
  const refused = (why: string, seconds: number) =>
    new RateLimitedError(
      `${label}: ${why}, retry in ${seconds}s`,
      { service: req.service, operation: req.operation, status: 429 },
      seconds,
      true,
    );
  // Writes too: a burst of form posts spends its sender's share, not everyone's reads.
  const charge =
    visitor?.visitor !== undefined && deps.allowance
      ? await deps.allowance.charge(req.budgetKey, { ...visitor, visitor: visitor.visitor })
      : undefined;
  if (charge?.ok === false) {
    // Counted, not logged line by line: a crawler over its share would flood the log.
    metrics.count(req.service, req.tenant, 'visitorRejected');
    throw refused("this visitor's share of the upstream budget is spent", charge.retryAfterSeconds);
  }
  const spent = await deps.budget.take(req.budgetKey, priority);
  if (!spent.ok) {
    // No call went out: the visitor's share is theirs again (a store failure keeps it spent).
    await charge?.refund().catch(() => undefined);
    metrics.count(req.service, req.tenant, 'budgetRejected');
    const error = refused('local rate budget spent', spent.retryAfterSeconds);
    // A watcher waiting its turn behind readers is the design, not a failure worth a line.
    if (priority !== 'background') metrics.failure(req.tenant, error);
    throw error;
  }
  metrics.count(req.service, req.tenant, 'upstreamCalls');
  return () => Promise.all([charge?.refund(), deps.budget.refund(req.budgetKey)]);
}

/**
 * A bug of ours, not the network's: what JavaScript throws for an address it cannot encode or a body
 * it cannot send (fetch's own network failures are TypeErrors carrying the socket's error as cause).
 */
const isBug = (error: unknown): boolean =>
  error instanceof URIError ||
  error instanceof RangeError ||
  error instanceof ReferenceError ||
  (error instanceof TypeError && (error.cause === undefined || isBug(error.cause)));

/** What ofetch threw after the last attempt, as the typed error the site branches on. */
function typedFailure(
  caught: unknown,
  req: UpstreamRequest,
  /** The last attempt's timeout, shorter than the call's near the page deadline. */
  attempt: { ms: number; cut: boolean },
): UpstreamError {
  const ctx = { service: req.service, operation: req.operation };
  const method = req.method ?? 'GET';
  const label = `[${req.service}] ${req.operation} ${method} ${req.path}`;
  if (caught instanceof FetchError && caught.response) {
    const { status, headers } = caught.response;
    const body: unknown = caught.data;
    // The APIs answer JSON (contracts): a 4xx page of HTML is a proxy's (nginx during a deploy, an
    // auth wall), not "no such post" or "signed out": an outage, so the cache serves its copy.
    if (body === NOT_JSON && status >= 400 && status < 500 && status !== 429) {
      const issue = 'body is not JSON';
      return new InvalidResponseError(`${label}: ${status} ${issue}`, { ...ctx, status }, issue);
    }
    const retryAfterSeconds = parseRetryAfter(headers);
    return errorFromStatus({ ...ctx, method, path: req.path, status, retryAfterSeconds, body });
  }
  const cause = caught instanceof FetchError ? caught.cause : caught;
  if (!timedOut(cause))
    return new NetworkError(`${label}: ${networkReason(cause)}`, { ...ctx, cause });
  const within = `${Math.round(attempt.ms)} ms${attempt.cut ? ' (page deadline)' : ''}`;
  return new TimeoutError(`${label}: no response within ${within}`, { ...ctx, cause });
}

/**
 * Sends one logical request on ofetch's retry: every attempt that leaves spends the visitor's
 * allowance and the budget first (`leave`), and a GET gets up to `maxRetries` more on a network error, timeout or
 * a status in `RETRY_STATUS_CODES`. Inside a page render (see `visitor.ts`) every attempt ends by
 * the page's deadline and no retry starts that could not finish before it. Every failure leaves as a
 * typed `UpstreamError`, counted and logged once. Resolves to the parsed JSON body (`undefined`
 * when empty).
 */
export async function sendRequest(deps: HttpDeps, req: UpstreamRequest): Promise<unknown> {
  const { metrics, http: settings } = deps;
  const visitor = currentVisitor();
  const deadline = visitor?.deadline ?? Infinity;
  const method = req.method ?? 'GET';
  const retries = method === 'GET' ? settings.maxRetries : 0;
  const { timeoutMs } = settings;
  const ctx = { service: req.service, operation: req.operation };
  const label = `[${req.service}] ${req.operation} ${method} ${req.path}`;
  const answered = (outcome: string) =>
    metrics.answered(req.service, req.tenant, req.operation, outcome);
  const fail = (error: UpstreamError, repeats?: string): UpstreamError => {
    metrics.failure(req.tenant, error, repeats);
    return error;
  };
  const attempt = { ms: timeoutMs, cut: false };
  let delayMs = 0; // before the next attempt
  /** After a failed attempt: how long before the next, or none (`retry = false`). */
  const planRetry = (options: ResolvedFetchOptions, retryAfterSeconds?: number) => {
    const left = typeof options.retry === 'number' ? options.retry : 0;
    delayMs = retryDelayMs(settings, retries - left, retryAfterSeconds);
    // Waiting past the cap would hold a page render hostage, and a retry that could not finish
    // before the page's deadline only delays the answer: fail (or serve stale) instead.
    const tooLong = (retryAfterSeconds ?? 0) * 1000 > settings.retryAfterCapMs;
    if (tooLong || Date.now() + delayMs >= deadline) options.retry = false;
  };

  // Spends each attempt as it leaves: what ofetch or fetch refuses to build (an address it cannot
  // encode, a body it cannot send) never reached the API and costs the budget nothing.
  // The attempt's time starts once it is spent: waiting for the budget is no part of it.
  const leave: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const refund = await spend(deps, req, priorityOf(method, visitor), visitor, label);
    const left = deadline - Date.now();
    attempt.ms = Math.max(0, Math.min(timeoutMs, left));
    attempt.cut = left < timeoutMs;
    // Not ofetch's `timeout`: it stops at the headers, and its retries reuse the spent signal.
    return fetch(request, { signal: AbortSignal.timeout(attempt.ms) }).catch(async (error) => {
      // Refused: the upstream counted nothing, so neither do we (else readers would be told "busy"
      // for a minute after an outage, the budget spent on calls that never left).
      if (neverSent(error)) await refund();
      throw error;
    });
  };

  try {
    const response = await ofetch.create({}, { fetch: leave }).raw<unknown, 'stream'>(req.path, {
      baseURL: req.baseUrl,
      method,
      ...(req.query && { query: req.query }),
      ...(req.body && { body: req.body }),
      headers: {
        Accept: 'application/json',
        ...req.headers,
        ...(req.token !== undefined && { Authorization: `Bearer ${req.token}` }),
      },
      retry: retries,
      retryStatusCodes: [...RETRY_STATUS_CODES, ...(settings.retryRateLimited ? [429] : [])],
      retryDelay: () => delayMs,
      // Read below with a limit (`readLimited`), not whole by ofetch.
      responseType: 'stream',
      redirect: method === 'GET' ? 'follow' : 'manual',
      onRequest() {
        if (deadline <= Date.now()) {
          throw fail(new TimeoutError(`${label}: the page deadline passed before this call`, ctx));
        }
      },
      async onResponse({ response }) {
        answered(String(response.status));
        if (response.status === 429) metrics.count(req.service, req.tenant, 'rateLimited429');
        await deps.budget.observe(req.budgetKey, rateInfo(response.headers, response.status));
        const refused = redirectRefused(req, method, response, label);
        if (refused) {
          void response.body?.cancel();
          // Every call to this address fails the same way until its baseUrl is fixed.
          throw fail(refused, req.baseUrl);
        }
        const issue = `body over ${settings.maxBodyBytes} bytes`;
        const { status } = response;
        const tooLarge = () =>
          fail(new InvalidResponseError(`${label}: ${status} ${issue}`, { ...ctx, status }, issue));
        const body = await readLimited(response, settings.maxBodyBytes, tooLarge);
        response._data = parseJson(body.toString('utf8'));
      },
      onResponseError: ({ response, options }) =>
        planRetry(options, parseRetryAfter(response.headers)),
      onRequestError({ error, options }) {
        // A refusal (`spend`) or our own bug: trying again would not change it.
        if (error instanceof UpstreamError || isBug(error)) return void (options.retry = false);
        answered(timedOut(error) ? 'timeout' : 'network');
        planRetry(options);
      },
    });
    // Parsed by `onResponse` (`responseType: 'stream'` only keeps ofetch from reading it).
    const data: unknown = response._data;
    if (data !== NOT_JSON) return data;
    const issue = 'body is not JSON';
    throw fail(new InvalidResponseError(`${label}: ${response.status} ${issue}`, ctx, issue));
  } catch (caught) {
    const cause = caught instanceof FetchError && !caught.response ? caught.cause : caught;
    // Refusals (budget, deadline, redirect, size) and the non-JSON body above are already counted;
    // a body that breaks off mid-read leaves `onResponse` (no retry) with its status answered.
    // Our own bug is no outage (a 503, a stale copy): it goes on as it is, to the 500 page.
    if (cause instanceof UpstreamError || isBug(cause)) throw cause;
    throw fail(typedFailure(caught, req, attempt));
  }
}
