import { isRecord } from '../content/records.ts';

/**
 * Typed failures of an upstream call. Pages branch on the class (`instanceof NotFoundError`),
 * logs use `name`, `status`, `service` and `operation`. Messages never contain a token: they are
 * built from the service, operation, method, path (no query) and the upstream `message` only.
 */

export type UpstreamService = 'publishing' | 'lodging';

interface UpstreamErrorContext {
  service: UpstreamService;
  operation: string;
  /** HTTP status, or undefined when no response arrived (timeout, network, budget). */
  status?: number | undefined;
  /** The upstream's `message`, when it sent one. */
  upstreamMessage?: string | undefined;
  cause?: unknown;
}

export class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly status: number | undefined;
  readonly service: UpstreamService;
  readonly operation: string;
  readonly upstreamMessage: string | undefined;

  constructor(message: string, context: UpstreamErrorContext) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.status = context.status;
    this.service = context.service;
    this.operation = context.operation;
    this.upstreamMessage = context.upstreamMessage;
  }

  /** A JSON-able summary for logs: never the request headers, so never a token. */
  toLog(): Record<string, unknown> {
    return {
      error: this.name,
      service: this.service,
      operation: this.operation,
      status: this.status ?? null,
      message: this.message,
    };
  }
}

/** 401: missing, invalid, revoked or other-tenant token. */
export class UnauthenticatedError extends UpstreamError {
  override name = 'UnauthenticatedError';
}

/** 403: valid token without the role or scope the action needs. */
export class ForbiddenError extends UpstreamError {
  override name = 'ForbiddenError';
}

/** 404: the resource (or route, or tenant) does not exist. */
export class NotFoundError extends UpstreamError {
  override name = 'NotFoundError';
}

/**
 * 404 on a list: the API has no such route (it spells the path otherwise, or does not know the
 * tenant), which is this site's configuration to fix (`npm run doctor`), not a missing item. Also a
 * redirect the site does not take (http.ts): a write's, or one that took a token's GET elsewhere.
 */
export class NoRouteError extends UpstreamError {
  override name = 'NoRouteError';
}

/** 422: field messages kept as sent, ready to show next to form inputs. */
export class ValidationError extends UpstreamError {
  override name = 'ValidationError';
  readonly fields: Record<string, string[]>;

  constructor(message: string, context: UpstreamErrorContext, fields: Record<string, string[]>) {
    super(message, context);
    this.fields = fields;
  }

  override toLog(): Record<string, unknown> {
    return { ...super.toLog(), fields: Object.keys(this.fields) };
  }
}

/**
 * 429 from upstream, or our own budget refusing to send (then `status` is 429 and `local` is true).
 * `retryAfterSeconds` says when a retry can succeed.
 */
export class RateLimitedError extends UpstreamError {
  override name = 'RateLimitedError';
  readonly retryAfterSeconds: number;
  readonly local: boolean;

  constructor(
    message: string,
    context: UpstreamErrorContext,
    retryAfterSeconds: number,
    local = false,
  ) {
    super(message, context);
    this.retryAfterSeconds = retryAfterSeconds;
    this.local = local;
  }

  override toLog(): Record<string, unknown> {
    return { ...super.toLog(), retryAfterSeconds: this.retryAfterSeconds, local: this.local };
  }
}

/** 5xx; `retryAfterSeconds` when it said how long (`Retry-After`, e.g. a maintenance window). */
export class UpstreamServerError extends UpstreamError {
  override name = 'UpstreamServerError';
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, context: UpstreamErrorContext, retryAfterSeconds?: number) {
    super(message, context);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** No complete response within the timeout. */
export class TimeoutError extends UpstreamError {
  override name = 'TimeoutError';
}

/** Connection refused, reset, DNS failure: nothing usable came back. */
export class NetworkError extends UpstreamError {
  override name = 'NetworkError';
}

/**
 * Why no answer came, from the innermost cause: `connect ECONNREFUSED 10.0.0.5:443`, `getaddrinfo
 * ENOTFOUND api.example.com`, a certificate's error; not fetch's own "fetch failed" around it.
 */
export function networkReason(error: unknown): string {
  const inner = innermost(error);
  const code = codeOf(inner);
  return (inner instanceof Error && inner.message) || (code ?? 'network error');
}

function innermost(error: unknown): unknown {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner;
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether a failed fetch sent nothing: the connection was refused, so the upstream's limit counted
 * no call. Not a failed DNS lookup: slow, and a host that never resolves must stay capped too.
 */
export function neverSent(error: unknown): boolean {
  return codeOf(innermost(error)) === 'ECONNREFUSED';
}

/** The body was not JSON, or did not match the schema. `issues` is a short zod summary for logs. */
export class InvalidResponseError extends UpstreamError {
  override name = 'InvalidResponseError';
  readonly issues: string;

  constructor(message: string, context: UpstreamErrorContext, issues: string) {
    super(message, context);
    this.issues = issues;
  }

  override toLog(): Record<string, unknown> {
    return { ...super.toLog(), issues: this.issues };
  }
}

/**
 * Failures where the last good cached value is better than an error page: the upstream is down,
 * slow, overloaded, rate limited, or answered garbage. 401/403/404/422 are answers, not outages.
 */
export function isOutage(error: unknown): boolean {
  return (
    error instanceof UpstreamServerError ||
    error instanceof TimeoutError ||
    error instanceof NetworkError ||
    error instanceof RateLimitedError ||
    error instanceof InvalidResponseError ||
    error instanceof NoRouteError
  );
}

/** An error body's `errors` as field → messages, tolerating anything else. */
function fieldMessages(errors: unknown): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(isRecord(errors) ? errors : {})) {
    if (Array.isArray(value)) fields[field] = value.map(String);
    else if (typeof value === 'string') fields[field] = [value];
  }
  return fields;
}

interface StatusErrorInput {
  service: UpstreamService;
  operation: string;
  method: string;
  path: string;
  status: number;
  body: unknown;
  retryAfterSeconds?: number | undefined;
}

/** Maps an HTTP error status (4xx/5xx) to its typed error, with the body's `message` and `errors`. */
export function errorFromStatus(input: StatusErrorInput): UpstreamError {
  const { service, operation, method, path, status } = input;
  const body = isRecord(input.body) ? input.body : {};
  const upstreamMessage = typeof body['message'] === 'string' ? body['message'] : undefined;
  const message = `[${service}] ${operation} ${method} ${path}: ${status}${
    upstreamMessage ? ` ${upstreamMessage}` : ''
  }`;
  const context: UpstreamErrorContext = { service, operation, status, upstreamMessage };
  if (status === 401) return new UnauthenticatedError(message, context);
  if (status === 403) return new ForbiddenError(message, context);
  if (status === 404) return new NotFoundError(message, context);
  // Request Timeout: the upstream (or its proxy) gave up waiting, a hiccup like a 504.
  if (status === 408) return new TimeoutError(message, context);
  if (status === 422) return new ValidationError(message, context, fieldMessages(body['errors']));
  if (status === 429) return new RateLimitedError(message, context, input.retryAfterSeconds ?? 60);
  if (status >= 500) return new UpstreamServerError(message, context, input.retryAfterSeconds);
  // Other 4xx (400, 405, 409, …): not expected from these APIs, kept as the base class.
  return new UpstreamError(message, context);
}
