import type { Context, Next } from 'hono';

/**
 * How a limit counts: `fixed` windows from a key's first request (Laravel's cache limiter, the
 * default), or a `sliding` log (every request of the last window counts, as a gateway that counts
 * by sliding window does: N calls at a fixed window's end and N at the next one's start are 2N).
 */
export type LimitWindow = 'fixed' | 'sliding';

/** Requests per window (a minute unless `windowSeconds` scales it); 0 disables a limit. */
export type Limits = {
  publicPerMinute: number;
  tokenPerMinute: number;
  lodgingPerMinute: number;
  window: LimitWindow;
  /** Length of a window (60: the contracts' minute; tests scale it down with the limits). */
  windowSeconds: number;
};

/** The contracts' documented limits. */
export const DEFAULT_LIMITS: Limits = {
  publicPerMinute: 60,
  tokenPerMinute: 240,
  lodgingPerMinute: 60,
  window: 'fixed',
  windowSeconds: 60,
};

type Window = { count: number; resetAt: number };

/** Per key: its fixed window, or the times of its requests in the sliding window. */
export type Limiter = { windows: Map<string, Window>; logs: Map<string, number[]> };

export const createLimiter = (): Limiter => ({ windows: new Map(), logs: new Map() });

/** Counts of one request: how many the window holds with it, and when it next has room. */
type Count = { used: number; resetAt: number; refused: boolean };

/** Fixed: every request counts, refused ones too (as Laravel's `hit` before the check). */
function countFixed(limiter: Limiter, key: string, limit: number, windowMs: number): Count {
  const now = Date.now();
  let w = limiter.windows.get(key);
  if (!w || w.resetAt <= now) {
    w = { count: 0, resetAt: now + windowMs };
    limiter.windows.set(key, w);
  }
  w.count++;
  return { used: w.count, resetAt: w.resetAt, refused: w.count > limit };
}

/** Sliding: the requests let through in the last window; a refused one is not logged. */
function countSliding(limiter: Limiter, key: string, limit: number, windowMs: number): Count {
  const now = Date.now();
  const log = (limiter.logs.get(key) ?? []).filter((at) => at > now - windowMs);
  limiter.logs.set(key, log);
  const refused = log.length >= limit;
  if (!refused) log.push(now);
  // Room again when the oldest request that keeps the log full leaves it.
  const leaving = log[log.length - limit] ?? now;
  return { used: log.length + (refused ? 1 : 0), resetAt: leaving + windowMs, refused };
}

/** Counts one request against `key`; answers 429 past `limit`, sets headers either way. */
export async function throttle(
  c: Context,
  next: Next,
  limiter: Limiter,
  key: string,
  limit: number,
  limits: Pick<Limits, 'window' | 'windowSeconds'> = DEFAULT_LIMITS,
) {
  if (limit <= 0) return next();
  const windowMs = limits.windowSeconds * 1000;
  const count = (limits.window === 'sliding' ? countSliding : countFixed)(
    limiter,
    key,
    limit,
    windowMs,
  );
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - count.used)),
  };
  if (count.refused) {
    return tooManyAttempts(
      c,
      headers,
      Math.ceil((count.resetAt - Date.now()) / 1000),
      count.resetAt,
    );
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
