import type { APIContext } from 'astro';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { REDIS_URL, TRUST_PROXY } from 'astro:env/server';
import { getRedis } from '../upstream/redis.ts';

/** Per-IP limits of the sign-in forms, shared across instances through Redis when `REDIS_URL` is set. */

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const LIMITS = {
  // Failed logins: enough for typos and a forgotten password, far too few to guess one.
  login: { points: envInt('AUTH_LOGIN_FAILURES_PER_IP_PER_15_MIN', 10), duration: 900 },
  // New accounts: a household or office registers a few, a script registers hundreds.
  register: { points: envInt('AUTH_REGISTRATIONS_PER_IP_PER_HOUR', 10), duration: 3600 },
} as const;
export type AttemptKind = keyof typeof LIMITS;

const limiters = new Map<AttemptKind, Promise<RateLimiterAbstract>>();

export function attemptLimiter(kind: AttemptKind): Promise<RateLimiterAbstract> {
  let found = limiters.get(kind);
  if (!found) {
    const base = { ...LIMITS[kind], keyPrefix: `masthead:auth:${kind}` };
    const redisUrl = REDIS_URL;
    found = redisUrl
      ? getRedis(redisUrl).then(
          (storeClient) =>
            new RateLimiterRedis({
              ...base,
              storeClient,
              insuranceLimiter: new RateLimiterMemory(base),
            }),
        )
      : Promise.resolve(new RateLimiterMemory(base));
    limiters.set(kind, found);
  }
  return found;
}

/** The visitor's address: the proxy's `X-Forwarded-For` only when the proxy is trusted. */
export function clientIp(context: Pick<APIContext, 'request' | 'clientAddress'>): string {
  if (TRUST_PROXY) {
    const forwarded = context.request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
}
