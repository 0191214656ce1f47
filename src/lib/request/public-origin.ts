import { settings } from '../settings/settings.ts';
import { getTenants } from '../tenants/registry.ts';
import { resolveTenant, type TenantMatch } from '../tenants/resolution.ts';

/** A bare host with an optional port: no user info, path, spaces or other URL syntax. */
const HOST_SYNTAX =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The first value of a comma-separated proxy header, trimmed; `undefined` when empty. */
const firstValue = (header: string | null) => header?.split(',')[0]?.trim() || undefined;

/** `true` for a host header value a browser could have sent (`news.example.com:8080`, `[::1]`). */
export function isValidHost(host: string): boolean {
  return HOST_SYNTAX.test(host);
}

/**
 * `X-Forwarded-Host` when the proxy is trusted and the value is a plain host, else undefined: the
 * one place `TRUST_PROXY` decides which host the visitor used.
 */
export function forwardedHost(
  headers: Pick<Headers, 'get'>,
  trustProxy = settings().TRUST_PROXY,
): string | undefined {
  if (!trustProxy) return undefined;
  const host = firstValue(headers.get('x-forwarded-host'));
  return host && isValidHost(host) ? host : undefined;
}

/**
 * The origin the visitor's browser used. Behind a trusted proxy, from `X-Forwarded-Host` (when it
 * rewrites `Host`) and `X-Forwarded-Proto` (when it ends TLS: a load balancer keeping `Host`);
 * otherwise from the request URL. It is what a request says, so it only serves to compare with the
 * request's own `Origin` (cross-site checks) and to answer the page's own frame (the booking embed);
 * every absolute link takes the tenant's configured origin instead (`tenantOrigin`,
 * lib/tenants/origin.ts).
 */
export function publicOrigin(
  url: URL,
  headers: Headers,
  trustProxy = settings().TRUST_PROXY,
): string {
  if (!trustProxy) return url.origin;
  const host = forwardedHost(headers, trustProxy) ?? url.host;
  const proto = firstValue(headers.get('x-forwarded-proto'))?.toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : url.protocol.replace(/:$/, '');
  return new URL(`${scheme}://${host}`).origin;
}

/**
 * The tenant a request addresses (host, `/<id>/` prefix, `?tenant=`, or single-tenant mode), by the
 * host of the visitor's public origin (`locals.visitor.origin` once the middleware has it).
 */
export function tenantOfRequest(
  url: URL,
  headers: Headers,
  origin = publicOrigin(url, headers),
): TenantMatch | null {
  return resolveTenant({ url, origin, forcedTenantId: settings().MASTHEAD_TENANT }, getTenants());
}
