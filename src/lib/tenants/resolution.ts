import type { Tenant } from './schema.ts';

/** How a request picked its tenant; decides how links are built. */
type TenantVia = 'host' | 'path' | 'query' | 'single';

export interface TenantMatch {
  tenant: Tenant;
  via: TenantVia;
  /** `/<id>` when the tenant came from a path prefix, else ''. */
  basePath: string;
  /** The path to render, with the prefix removed. */
  pathname: string;
  /**
   * The origin the visitor's browser used (the forwarded one behind a trusted proxy): what a
   * request's `Origin` is compared with. Links never take it: see `tenantOrigin` (./origin.ts).
   */
  origin: string;
}

/** `decodeURIComponent`, or `undefined` for a malformed escape such as `%` or `%E0%A4%A`. */
export function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The tenant's primary host: the first exact (non-wildcard) name in `hosts`. */
export function primaryHost(tenant: Tenant): string {
  return tenant.hosts.find((host) => !host.startsWith('*.')) ?? tenant.hosts[0] ?? 'localhost';
}

/** Lower-cases and strips port and trailing dot: `News.Example.com.:443` → `news.example.com`. */
export function normalizeHost(host: string): string {
  const first = host.split(',')[0]?.trim().toLowerCase() ?? '';
  const withoutPort = first.startsWith('[')
    ? first.replace(/\]:\d+$/, ']')
    : first.replace(/:\d+$/, '');
  return withoutPort.replace(/\.$/, '');
}

/** `*.example.com` matches one or more labels before `example.com`, never `example.com` itself. */
export function hostMatches(pattern: string, host: string): boolean {
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return pattern === host;
}

/** The tenant a host belongs to and the name of `hosts` that took it (exact, else a wildcard). */
function ownerOfHost(
  normalized: string,
  tenants: readonly Tenant[],
): { tenant: Tenant; pattern: string } | undefined {
  if (!normalized) return undefined;
  // Exact names win over wildcards, so `www.example.com` can belong to another tenant than `*.example.com`.
  const exact = tenants.find((tenant) => tenant.hosts.includes(normalized));
  if (exact) return { tenant: exact, pattern: normalized };
  // Then the longest wildcard: `*.sport.example.com` over `*.example.com`, in any order of the file.
  let best: { tenant: Tenant; pattern: string } | undefined;
  for (const tenant of tenants) {
    for (const pattern of tenant.hosts) {
      if (pattern.length > (best?.pattern.length ?? 0) && hostMatches(pattern, normalized)) {
        best = { tenant, pattern };
      }
    }
  }
  return best;
}

/**
 * The host a shared cache keeps a page under: the host when a tenant names it exactly, a wildcard's
 * pattern (`*.example.com`) for every subdomain it takes, and `*` for every host no tenant names
 * (`/<id>/` and `?tenant=` pages). Those pages are the same whatever the host (links never name
 * it: ./origin.ts), and anyone can make such hosts up: one copy per made-up name would let a
 * stranger push the site's real pages out of the cache.
 */
export function cacheHostOf(host: string, tenants: readonly Tenant[]): string {
  return ownerOfHost(normalizeHost(host), tenants)?.pattern ?? '*';
}

/** Whether a tenant names `host` exactly (not a wildcard's subdomain, not a host no tenant names). */
export function namedHost(host: string, tenants: readonly Tenant[]): boolean {
  const normalized = normalizeHost(host);
  return normalized !== '' && ownerOfHost(normalized, tenants)?.pattern === normalized;
}

/**
 * Host, then `/<id>/` path prefix, then `?tenant=`; `null` when nothing matches (never a default
 * tenant). The host is the one of `origin`, the visitor's public origin (`publicOrigin` in
 * lib/request), which is the request URL's when absent.
 */
export function resolveTenant(
  input: { url: URL; origin?: string | undefined; forcedTenantId?: string | undefined },
  tenants: readonly Tenant[],
): TenantMatch | null {
  const { url, origin = url.origin } = input;
  const match = (
    tenant: Tenant | undefined,
    via: TenantVia,
    basePath = '',
    pathname = url.pathname,
  ) => (tenant ? { tenant, via, basePath, pathname, origin } : null);
  const byId = (id: string | null | undefined) =>
    id ? tenants.find((tenant) => tenant.id === id) : undefined;
  if (input.forcedTenantId) return match(byId(input.forcedTenantId), 'single');
  const host = URL.parse(origin)?.host || url.host;
  const byHost = ownerOfHost(normalizeHost(host), tenants);
  if (byHost) return match(byHost.tenant, 'host');

  const [, first = '', ...rest] = url.pathname.split('/');
  const byPath = byId(first && safeDecode(first));
  if (byPath) return match(byPath, 'path', `/${byPath.id}`, `/${rest.join('/')}`);

  return match(byId(url.searchParams.get('tenant')), 'query');
}

/** Builds a site-internal link that stays inside the tenant's prefix (or keeps `?tenant=` in preview). */
export function tenantHref(
  match: Pick<TenantMatch, 'via' | 'basePath' | 'tenant'>,
  path: string,
): string {
  const at = path.search(/[?#]/);
  const pathname = at < 0 ? path : path.slice(0, at);
  const { basePath } = match;
  const prefixed = (basePath ? `${basePath}${pathname === '/' ? '' : pathname}` : pathname) || '/';
  if (match.via !== 'query' && at < 0) return prefixed;
  // A query is written out as URLSearchParams does (`?signed-out` → `?signed-out=`, spaces encoded).
  const [pathAndQuery = '', hash] = path.split('#');
  const params = new URLSearchParams(pathAndQuery.split('?')[1] ?? '');
  if (match.via === 'query') params.set('tenant', match.tenant.id);
  const search = params.toString();
  return `${prefixed}${search ? `?${search}` : ''}${hash !== undefined ? `#${hash}` : ''}`;
}
