import { z } from 'zod';
import {
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamServerError,
  ValidationError,
  isOutage,
} from '../upstream/errors.ts';
import { fieldErrorsOf } from './fields.ts';
import type { FieldErrors } from './fields.ts';
import { retryAfterSeconds } from './wait.ts';

/**
 * What went wrong, as every surface (page, feed, JSON endpoint, form) needs to know it. Each
 * surface only turns the kind into its own output; none looks at error classes itself.
 */
export type Failure =
  | { kind: 'not-found' }
  /** Down, slow or answering garbage; `retryAfterSeconds` when the failure says how long. */
  | { kind: 'outage'; retryAfterSeconds?: number | undefined }
  /** Rate limited (upstream 429 or our own budget): rounded up, at least 1 s. */
  | { kind: 'busy'; retryAfterSeconds: number }
  /** Field messages keyed as the source sent them, and its summary when it gave one. */
  | { kind: 'invalid'; fields: FieldErrors; message?: string | undefined }
  /**
   * The feature cannot work with what the upstream sends (a field it needs is missing): not
   * temporary, so no retry promise; `message` says what to do instead (e.g. whom to contact).
   */
  | { kind: 'unsupported'; message: string }
  /** 401 (no valid sign-in) or 403 (signed in without the right). */
  | { kind: 'refused'; status: 401 | 403 }
  /** Anything else: a bug or an answer nobody expects. Log it, show a generic message. */
  | { kind: 'unexpected' };

/** An error this site raises itself (a rule, a limit, missing configuration), already classified. */
export class KnownFailure extends Error {
  override name = 'KnownFailure';
  readonly failure: Failure;

  constructor(message: string, failure: Failure) {
    super(message);
    this.failure = failure;
  }
}

/** The one place that decides what kind of failure an error is. */
export function classify(error: unknown): Failure {
  if (error instanceof KnownFailure) return error.failure;
  if (error instanceof NotFoundError) return { kind: 'not-found' };
  if (error instanceof RateLimitedError) {
    return { kind: 'busy', retryAfterSeconds: retryAfterSeconds(error.retryAfterSeconds) };
  }
  if (error instanceof UpstreamServerError && error.retryAfterSeconds !== undefined) {
    return { kind: 'outage', retryAfterSeconds: retryAfterSeconds(error.retryAfterSeconds) };
  }
  if (isOutage(error)) return { kind: 'outage' };
  if (error instanceof ValidationError) {
    return { kind: 'invalid', fields: error.fields, message: error.upstreamMessage };
  }
  if (error instanceof z.core.$ZodError)
    return { kind: 'invalid', fields: fieldErrorsOf(error.issues) };
  if (error instanceof UnauthenticatedError) return { kind: 'refused', status: 401 };
  if (error instanceof ForbiddenError) return { kind: 'refused', status: 403 };
  return { kind: 'unexpected' };
}

/** Failures that pass with time (a page answers 503 with `Retry-After`). */
export function isTemporary(
  failure: Failure,
): failure is Extract<Failure, { kind: 'outage' | 'busy' }> {
  return failure.kind === 'outage' || failure.kind === 'busy';
}

/** A 401: the token was revoked or expired (sign in again, or go on as a guest). */
export function isSignedOut(failure: Failure): boolean {
  return failure.kind === 'refused' && failure.status === 401;
}
