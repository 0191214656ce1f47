import { hostMatches } from '../tenants/resolution.ts';
import type { Tenant } from '../tenants/schema.ts';

/**
 * Whether the image route may fetch `source` for `tenant`: http(s) on the publishing API's own
 * origin, or on a host of `publishing.mediaHosts` (a CDN; `*.example.com` wildcards as in `hosts`).
 * The route is therefore no open proxy even with a leaked signing secret.
 */
export function sourceAllowed(tenant: Pick<Tenant, 'publishing'>, source: string): boolean {
  const url = URL.parse(source);
  if (!url) return false;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  if (url.origin === new URL(tenant.publishing.baseUrl).origin) return true;
  const hosts = tenant.publishing.mediaHosts ?? [];
  return hosts.some((pattern) => hostMatches(pattern, url.hostname.toLowerCase()));
}
