import { normalizeHost, primaryHost, type TenantMatch } from './resolution.ts';

/** Development names: `localhost` and `*.localhost` always reach the visitor's own machine. */
const LOOPBACK_NAME = /(^|\.)localhost$/;

/**
 * The origin of every absolute link the site mails (manage links, the footer's site address): the
 * tenant's own, from tenants.json, never what a request's `Host` or `X-Forwarded-Host` says.
 *
 * - The host: the one the visitor used when it is exactly one of the tenant's names (not a
 *   wildcard), else its first non-wildcard name. A tenant whose names are all wildcards has no
 *   origin to mail: `null`, and no link is mailed (docs/booking-partners.md, "E-mail links").
 * - The scheme: https. Only `localhost` names (development) are http and keep the request's port,
 *   as the site runs on a port there and no one else can answer on them.
 */
export function mailOrigin(match: Pick<TenantMatch, 'tenant' | 'origin'>): string | null {
  const { tenant } = match;
  let used: URL | undefined;
  try {
    used = new URL(match.origin);
  } catch {
    used = undefined;
  }
  const exact = tenant.hosts.filter((host) => !host.startsWith('*.'));
  const visited = used ? normalizeHost(used.host) : '';
  const host = exact.includes(visited) ? visited : exact.length > 0 ? primaryHost(tenant) : '';
  if (!host) return null;
  if (!LOOPBACK_NAME.test(host)) return `https://${host}`;
  const port = used && LOOPBACK_NAME.test(normalizeHost(used.host)) ? used.port : '';
  return `http://${host}${port ? `:${port}` : ''}`;
}

/** `path` (without the tenant's path prefix) on the tenant's mail origin, or null (see above). */
export function mailUrl(
  match: Pick<TenantMatch, 'tenant' | 'origin'> | null | undefined,
  path: string,
): string | null {
  const origin = match ? mailOrigin(match) : null;
  return origin ? new URL(path, origin).href : null;
}
