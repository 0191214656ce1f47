import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryAfterFromMs } from '../failures/wait.ts';

/** A visitor has used up their sign-in attempts; `retryAfterSeconds` until the next one is allowed. */
export class TooManyAttemptsError extends Error {
  override name = 'TooManyAttemptsError';
  readonly retryAfterSeconds: number;

  constructor(retryAfterMs: number) {
    const seconds = retryAfterFromMs(retryAfterMs);
    super(`Too many attempts: retry in ${seconds}s`);
    this.retryAfterSeconds = seconds;
  }
}

/** Refuses, without counting, when `key` has spent all its points (checked before a login is tried). */
export async function assertAttemptsLeft(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= limiter.points) {
    throw new TooManyAttemptsError(state.msBeforeNext);
  }
}

/** Counts one attempt and refuses it when it goes over the limit (registrations: every try counts). */
export async function countAttempt(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new TooManyAttemptsError(error.msBeforeNext);
    throw error;
  }
}

/**
 * Counts a failed login. Only failures count, so people who sign in often are never refused while
 * guessing passwords is; the attempt that spends the last point still shows its own message.
 */
export async function recordFailure(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
  }
}
