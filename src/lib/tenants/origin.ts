import { isLoopback } from '../settings/listen.ts';
import { settings } from '../settings/settings.ts';
import { normalizeHost, primaryHost, type TenantMatch } from './resolution.ts';
import type { Tenant } from './schema.ts';

/** Development names: `localhost` and `*.localhost` always reach the visitor's own machine. */
const LOOPBACK_NAME = /(^|\.)localhost$/;

/** What of a request's tenant match the origin is chosen from. */
export type OriginMatch = Pick<TenantMatch, 'tenant' | 'origin'>;

/**
 * The one origin of every absolute link the site writes: pages (canonical, og:url, structured
 * data), feeds, sitemaps, e-mails and `Location` headers. It comes from the tenant's hosts in
 * tenants.json, never from what a request's `Host` or `X-Forwarded-Host` says:
 *
 * - The host: the one the visitor used when it is exactly one of the tenant's names, else the
 *   tenant's first exact name (`primaryHost`). A wildcard (`*.example.com`) is never written into a
 *   link, whatever name it matched: anyone's subdomain may match it. A tenant needs one exact name
 *   (tenants.json refuses a tenant with wildcards only).
 * - The scheme: https. Only `localhost` names (development) are http, and they keep the request's
 *   port when the request came to this machine (a `localhost` name or a loopback address): the site
 *   runs on a port there, and no one else can answer on those names.
 * - A static copy's pages name where its files will be served (`static.origin`).
 */
export function tenantOrigin(match: OriginMatch): string {
  const { tenant } = match;
  // A static build (`isStaticBuild` in lib/static/mode.ts, a layer above this one).
  if (settings().MASTHEAD_STATIC_SNAPSHOT) {
    const origin = staticOrigin(tenant);
    if (origin) return origin;
  }
  const used = URL.parse(match.origin);
  const visited = used ? normalizeHost(used.host) : '';
  const exact = tenant.hosts.filter((host) => !host.startsWith('*.'));
  const host = exact.includes(visited) ? visited : primaryHost(tenant);
  if (!LOOPBACK_NAME.test(host)) return `https://${host}`;
  const port = used && isLoopback(visited) ? used.port : '';
  return `http://${host}${port ? `:${port}` : ''}`;
}

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
