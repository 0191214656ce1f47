import { memo } from '../memo.ts';
import { isLoopback } from '../settings/listen.ts';
import { settings } from '../settings/settings.ts';
import { normalizeHost, primaryHost, type TenantMatch } from './resolution.ts';
import type { Tenant } from './schema.ts';

/** Development names: `localhost` and `*.localhost` always reach the visitor's own machine. */
const LOOPBACK_NAME = /(^|\.)localhost$/;

/** What of a request's tenant match the origin is chosen from. */
export type OriginMatch = Pick<TenantMatch, 'tenant' | 'origin'>;

/**
 * The one origin of every absolute link the site writes (pages, feeds, sitemaps, e-mails,
 * `Location`), from the tenant's hosts, never from a request's `Host` or `X-Forwarded-Host`: the
 * host the visitor used when it is one of the tenant's exact names, else `primaryHost` (a wildcard
 * match is never written: anyone's subdomain may match it). https, except `localhost` names
 * (development), which keep the request's port when it came to this machine. A static copy names
 * where its files will be served (`static.origin`).
 */
export function tenantOrigin(match: OriginMatch): string {
  const { tenant } = match;
  // A static build (`isStaticBuild` in lib/static/mode.ts, a layer above this one).
  if (settings().MASTHEAD_STATIC_SNAPSHOT) {
    const origin = staticOrigin(tenant);
    if (origin) return origin;
  }
  return originsOf(tenant)(match.origin);
}

/**
 * Per tenant config (a reload makes new objects): its link origin for a visited origin. Not kept per
 * visited origin: parsing one costs less than an LRU's bookkeeping, and a wildcard tenant's
 * subdomains, each visited once, would only push each other out.
 */
const originsOf = memo((tenant: Tenant) => {
  const exact = new Set(tenant.hosts.filter((host) => !host.startsWith('*.')));
  const primary = primaryHost(tenant);
  return (visitedOrigin: string): string => {
    const used = URL.parse(visitedOrigin);
    const visited = used ? normalizeHost(used.host) : '';
    const host = exact.has(visited) ? visited : primary;
    if (!LOOPBACK_NAME.test(host)) return `https://${host}`;
    const port = used && isLoopback(visited) ? used.port : '';
    return `http://${host}${port ? `:${port}` : ''}`;
  };
});

/** Origin of the static copy: `static.origin`, else the primary host over https; `null` when none can be named. */
export function staticOrigin(tenant: Tenant): string | null {
  if (tenant.static?.origin) return tenant.static.origin;
  const host = primaryHost(tenant);
  return host.startsWith('*.') ? null : `https://${host}`;
}

/** `path` (without the tenant's path prefix) on the tenant's origin; null without a tenant. */
export function tenantUrl(match: OriginMatch | null | undefined, path: string): string | null {
  return match ? new URL(path, tenantOrigin(match)).href : null;
}
