import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { consumeLimit, refundLimit } from '../request/visitor-limits.ts';

/** A visitor has used up their sign-in attempts; `retryAfterSeconds` until the next one is allowed. */
export class TooManyAttemptsError extends Error {
  override name = 'TooManyAttemptsError';
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(`Too many attempts: retry in ${retryAfterSeconds}s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Runs one login attempt within `key`'s limit. The attempt is reserved before the upstream is asked,
 * so parallel tries cannot all pass a check made before any of them failed; it is given back unless
 * `counts(error)` says it was a wrong guess, so people who sign in often (or meet an outage) are
 * never refused while guessing passwords is. The attempt that spends the last point still shows its
 * own message.
 */
export async function withinAttempts<T>(
  limiter: RateLimiterAbstract,
  key: string,
  attempt: () => Promise<T>,
  counts: (error: unknown) => boolean,
): Promise<T> {
  await countAttempt(limiter, key);
  try {
    const result = await attempt();
    await refund(limiter, key);
    return result;
  } catch (error) {
    if (!counts(error)) await refund(limiter, key);
    throw error;
  }
}

/** Gives a reserved attempt back; a store failure only leaves it counted. */
async function refund(limiter: RateLimiterAbstract, key: string): Promise<void> {
  await refundLimit(limiter, key).catch(() => undefined);
}

/** Counts one attempt and refuses it when it goes over the limit. */
export async function countAttempt(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const counted = await consumeLimit(limiter, key);
  if (!counted.ok) throw new TooManyAttemptsError(counted.retryAfterSeconds);
}

/**
 * Runs one attempt that counts when it succeeds or when `counts(error)` (registrations: an account
 * made, or one the API refused, so probing e-mail addresses is limited too); any other failure (an
 * outage, a busy API) gives the attempt back, as nothing was made and the reader may simply retry.
 */
export async function countedAttempt<T>(
  limiter: RateLimiterAbstract,
  key: string,
  attempt: () => Promise<T>,
  counts: (error: unknown) => boolean,
): Promise<T> {
  await countAttempt(limiter, key);
  try {
    return await attempt();
  } catch (error) {
    if (!counts(error)) await refund(limiter, key);
    throw error;
  }
}
