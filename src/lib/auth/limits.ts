import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { settings } from '../settings/settings.ts';
import { visitorLimiter } from '../request/visitor-limits.ts';
const { AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN, AUTH_REGISTRATIONS_PER_IP_PER_HOUR, REDIS_URL } =
  settings();

/** Per-IP limits of the sign-in forms, shared across instances through Redis when `REDIS_URL` is set. */

const LIMITS = {
  // Failed logins: enough for typos and a forgotten password, far too few to guess one.
  login: { points: AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN, duration: 900 },
  // New accounts: a household or office registers a few, a script registers hundreds.
  register: { points: AUTH_REGISTRATIONS_PER_IP_PER_HOUR, duration: 3600 },
} as const;

export function attemptLimiter(kind: keyof typeof LIMITS): Promise<RateLimiterAbstract> {
  return visitorLimiter(`auth:${kind}`, LIMITS[kind], REDIS_URL);
}
