import { uncached, uncachedJson } from '../delivery/policy.ts';
import { isLoopback } from '../settings/listen.ts';
import { wantsJson } from './body-limit.ts';
import { hostMatches, normalizeHost, type TenantMatch } from '../tenants/resolution.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * Astro's `security.checkOrigin` against the visitor's public origin (`publicOrigin`), so forms
 * work behind a trusted proxy that rewrites `Host` (Astro's own compares with `Host` before any
 * middleware: it is off in astro.config.mjs). Same rules: unsafe methods only; form-like bodies and
 * bodies without a type must come from the same origin; JSON is left to CORS.
 */
export function isCrossSiteFormPost(request: Request, expectedOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method) || request.headers.get('origin') === expectedOrigin)
    return false;
  const type = request.headers.get('content-type')?.toLowerCase();
  return type === undefined || FORM_TYPES.some((form) => type.includes(form));
}

/**
 * The host a write came to when the tenant does not answer to it (`null`: the write may go on). A
 * tenant picked by path prefix, `?tenant=` or single-tenant mode on a host not in its `hosts` (a
 * foreign name, a rebound DNS name, a forged `Host`) may be read, never written to: the write would
 * run on a site the visitor did not mean. Reads and this machine's names pass.
 */
export function foreignWriteHost(
  method: string,
  match: Pick<TenantMatch, 'tenant' | 'origin'> | null | undefined,
): string | null {
  if (!match || SAFE_METHODS.has(method.toUpperCase())) return null;
  const url = URL.parse(match.origin);
  const host = url ? normalizeHost(url.host) : '';
  if (host && isLoopback(host)) return null;
  if (host && match.tenant.hosts.some((pattern) => hostMatches(pattern, host))) return null;
  return host || '(none)';
}

/** 421 Misdirected Request: nothing was written; a JSON caller (the booking widget) gets JSON. */
export function foreignWriteRefusal(request: Request, host: string): Response {
  const message = `This site does not take posts sent to ${host}: open the site at its own address and try again.`;
  return wantsJson(request)
    ? uncachedJson(421, { ok: false, error: { code: 'wrong_host', message } })
    : uncached(421, message);
}
