import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/**
 * Upstream call counts, so tests can assert how often a client hit the API, and the 429s sent
 * (rate limits and `force429` alike): in all, and by publishing tenant or lodging account.
 */
export type ServiceStats = {
  total: number;
  routes: Record<string, number>;
  rateLimited: { total: number; by: Record<string, number> };
};

export const emptyStats = (): ServiceStats => ({
  total: 0,
  routes: {},
  rateLimited: { total: 0, by: {} },
});

/** `METHOD /path/{param}` relative to the API base, e.g. `POST /bookings`. */
export function routeKey(c: Context, base: string): string {
  const handler = matchedRoutes(c)
    .filter((r) => r.method !== 'ALL')
    .at(-1);
  if (!handler) return `${c.req.method} (unmatched)`;
  const path = handler.path.startsWith(base)
    ? handler.path.slice(base.length) || '/'
    : handler.path;
  return `${c.req.method} ${path.replace(/:(\w+)/g, '{$1}')}`;
}

export function count(stats: ServiceStats, key: string): void {
  stats.total++;
  stats.routes[key] = (stats.routes[key] ?? 0) + 1;
}

/** One 429 sent to `who` (a publishing tenant, a lodging account, `anonymous`). */
export function countRateLimited(stats: ServiceStats, who: string): void {
  stats.rateLimited.total++;
  stats.rateLimited.by[who] = (stats.rateLimited.by[who] ?? 0) + 1;
}

/** Calls per tenant by route, with the list's `per_page` when one was asked for. */
export type TenantStats = Record<string, Record<string, number>>;

export function countTenant(stats: TenantStats, tenant: string, key: string): void {
  const routes = (stats[tenant] ??= {});
  routes[key] = (routes[key] ?? 0) + 1;
}
