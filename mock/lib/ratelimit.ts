import type { Context, Next } from 'hono';

/** Requests per minute; 0 disables a limit. */
export type Limits = { publicPerMinute: number; tokenPerMinute: number; lodgingPerMinute: number };

/** The contracts' documented limits. */
export const DEFAULT_LIMITS: Limits = {
  publicPerMinute: 60,
  tokenPerMinute: 240,
  lodgingPerMinute: 60,
};

type Window = { count: number; resetAt: number };

/** Fixed 60-second windows starting at a key's first request (Laravel's cache limiter). */
export type Limiter = { windows: Map<string, Window> };

export const createLimiter = (): Limiter => ({ windows: new Map() });

/** Counts one request against `key`; answers 429 past `limit`, sets headers either way. */
export async function throttle(
  c: Context,
  next: Next,
  limiter: Limiter,
  key: string,
  limit: number,
) {
  if (limit <= 0) return next();
  const now = Date.now();
  let w = limiter.windows.get(key);
  if (!w || w.resetAt <= now) {
    w = { count: 0, resetAt: now + 60_000 };
    limiter.windows.set(key, w);
  }
  w.count++;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - w.count)),
  };
  if (w.count > limit) {
    return tooManyAttempts(c, headers, Math.ceil((w.resetAt - now) / 1000), w.resetAt);
  }
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  return undefined;
}

/** Laravel ThrottleRequests' 429. */
export function tooManyAttempts(
  c: Context,
  headers: Record<string, string>,
  retryAfter: number,
  resetAt: number,
) {
  return c.json({ message: 'Too Many Attempts.' }, 429, {
    ...headers,
    'X-RateLimit-Remaining': '0',
    'Retry-After': String(Math.max(1, retryAfter)),
    'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
  });
}
