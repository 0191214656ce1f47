import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { settings } from '../settings/settings.ts';
import { consumeLimit, refundLimit, visitorLimiter } from '../request/visitor-limits.ts';

/** Per-IP limits of the sign-in forms, shared across instances through Redis when `REDIS_URL` is set. */
export function attemptLimiter(kind: 'login' | 'register'): Promise<RateLimiterAbstract> {
  const { AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN, AUTH_REGISTRATIONS_PER_IP_PER_HOUR, REDIS_URL } =
    settings();
  const limits = {
    // Failed logins: enough for typos and a forgotten password, far too few to guess one.
    login: { points: AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN, duration: 900 },
    // New accounts: a household or office registers a few, a script registers hundreds.
    register: { points: AUTH_REGISTRATIONS_PER_IP_PER_HOUR, duration: 3600 },
  };
  return visitorLimiter(`auth:${kind}`, limits[kind], REDIS_URL);
}

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
 * Runs one attempt within `key`'s limit. The attempt is reserved before the upstream is asked, so
 * parallel tries cannot all pass a check made before any of them failed. A failure is given back
 * unless `counts(error)` says it was a wrong guess (or, for registrations, an account the API
 * refused, so probing e-mail addresses is limited too): people who meet an outage are never
 * refused. A success is given back too (sign-ins: people who sign in often are never refused)
 * unless `successCounts` (registrations: an account made). The attempt that spends the last point
 * still shows its own message.
 */
export async function withinAttempts<T>(
  limiter: RateLimiterAbstract,
  key: string,
  attempt: () => Promise<T>,
  counts: (error: unknown) => boolean,
  { successCounts = false } = {},
): Promise<T> {
  await countAttempt(limiter, key);
  try {
    const result = await attempt();
    if (!successCounts) await refund(limiter, key);
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
