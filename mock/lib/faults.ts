import type { Context, Next } from 'hono';
import { z } from 'zod';
import type { Rng } from './prng.ts';
import { sleep } from './http.ts';
import { tooManyAttempts } from './ratelimit.ts';

export const SERVICES = ['publishing', 'lodging'] as const;
export type Service = (typeof SERVICES)[number];

/** Body of `POST /faults` on the control server; omitted switches keep their value. */
export const FaultPatchSchema = z.object({
  service: z.enum(SERVICES),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  force429: z.boolean().optional(),
  /** `Retry-After` of forced 429s (tests keep it short so the site's budget recovers quickly). */
  retryAfterSeconds: z.number().int().min(1).max(3600).optional(),
  malformed: z.boolean().optional(),
  down: z.boolean().optional(),
  /** Writes are stored, then answered `500 Server Error` (an ambiguous failure). */
  savedThen500: z.boolean().optional(),
  /** Only this route, e.g. `POST /bookings` (stats key format); null = every write. */
  savedThen500Route: z.string().min(1).nullable().optional(),
  /** How many more writes get it before it switches itself off; null = until cleared. */
  savedThen500Times: z.number().int().min(1).nullable().optional(),
  /**
   * A compromised content system: every `subscribe_url` is answered as a `javascript:` address (still
   * a string, an absolute address as the contract says); clients must not make it a live link.
   */
  hostileLinks: z.boolean().optional(),
  /**
   * Lists answered as Laravel's `simplePaginate`: no `total`, `last_page` or last-page link, only
   * whether a next page exists (`links.next`, `next_page_url`). The lodging contract leaves a page's
   * envelope open; the publishing contract promises totals (docs/api-assumptions.md).
   */
  simplePaginate: z.boolean().optional(),
});

export type Faults = {
  latencyMs: number;
  errorRate: number;
  force429: boolean;
  retryAfterSeconds: number;
  malformed: boolean;
  down: boolean;
  savedThen500: boolean;
  savedThen500Route: string | null;
  savedThen500Times: number | null;
  hostileLinks: boolean;
  simplePaginate: boolean;
};

/** Applies a patch, skipping switches it leaves out. */
export function mergeDefined<T extends object>(
  base: T,
  patch: { [K in keyof T]?: T[K] | undefined },
): T {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export const noFaults = (): Faults => ({
  latencyMs: 0,
  errorRate: 0,
  force429: false,
  retryAfterSeconds: 60,
  malformed: false,
  down: false,
  savedThen500: false,
  savedThen500Route: null,
  savedThen500Times: null,
  hostileLinks: false,
  simplePaginate: false,
});

/** What `hostileLinks` puts in every `subscribe_url`: marks the page when it runs. */
export const HOSTILE_URL = "javascript:document.title='hostile link ran'";

function withHostileLinks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withHostileLinks);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === 'subscribe_url' ? HOSTILE_URL : withHostileLinks(inner),
    ]),
  );
}

/** A paginator's answer as `simplePaginate` gives it: what counts the pages removed. */
function uncounted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const page = value as Record<string, unknown>;
  for (const at of [page, page['meta']] as Record<string, unknown>[]) {
    if (typeof at === 'object' && at !== null) {
      for (const key of ['total', 'last_page', 'last_page_url']) delete at[key];
    }
  }
  // A raw paginator's numbered `links` list, or a resource paginator's `links.last`.
  if (Array.isArray(page['links'])) delete page['links'];
  else if (typeof page['links'] === 'object' && page['links'] !== null)
    (page['links'] as Record<string, unknown>)['last'] = null;
  return page;
}

/** Runs the route and rewrites its JSON answer with `rewrite`. */
async function rewriteJson(c: Context, next: Next, rewrite: (body: unknown) => unknown) {
  await next();
  if (!c.res.headers.get('content-type')?.includes('json')) return;
  const body: unknown = await c.res.clone().json();
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  c.res = new Response(JSON.stringify(rewrite(body)), { status: c.res.status, headers });
}

/** Login and logout are not writes of data; every other non-GET request is. */
const isDataWrite = (method: string, route: string) =>
  method !== 'GET' && method !== 'HEAD' && !route.startsWith(`${method} /auth/`);

/** "Saved, then 500": runs the route, keeps its effect and replaces a success with a 500. */
async function savedThen500(c: Context, next: Next, faults: Faults, route: string) {
  await next();
  if (c.res.status < 200 || c.res.status >= 300) return;
  if (!faults.savedThen500 || (faults.savedThen500Route ?? route) !== route) return;
  if (faults.savedThen500Times !== null) {
    faults.savedThen500Times -= 1;
    if (faults.savedThen500Times <= 0) {
      faults.savedThen500 = false;
      faults.savedThen500Times = null;
    }
  }
  c.res = c.json({ message: 'Server Error' }, 500);
}

/** Applies a service's current faults around its routes (`down` is handled by the listener). */
export async function injectFaults(
  c: Context,
  next: Next,
  faults: Faults,
  rng: Rng,
  route: string,
) {
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (faults.force429) {
    const resetAt = Date.now() + faults.retryAfterSeconds * 1000;
    return tooManyAttempts(c, { 'X-RateLimit-Limit': '60' }, faults.retryAfterSeconds, resetAt);
  }
  if (faults.errorRate > 0 && rng.next() < faults.errorRate) {
    return c.json({ message: 'Server Error' }, 500);
  }
  if (faults.malformed) {
    // Truncated JSON with a JSON content type: clients must not crash on parse errors.
    return c.body('{"data":[{"id":1,"title":"Truncated', 200, {
      'Content-Type': 'application/json',
    });
  }
  if (faults.savedThen500 && isDataWrite(c.req.method, route)) {
    return savedThen500(c, next, faults, route);
  }
  if (faults.hostileLinks || faults.simplePaginate) {
    return rewriteJson(c, next, (body) => {
      const linked = faults.hostileLinks ? withHostileLinks(body) : body;
      return faults.simplePaginate ? uncounted(linked) : linked;
    });
  }
  return next();
}
