/** Where a sign-in goes when `?next=` is absent or unsafe. */
export const DEFAULT_NEXT = '/account';

// Pages that would loop back into the sign-in flow.
const FLOW_PATHS = new Set(['/login', '/register', '/logout']);

/**
 * A same-site path to continue to after signing in, or `fallback`. Only relative paths of this site
 * pass: no scheme, no `//host` or `/\host` (browsers read both as another host), no control
 * characters. The result is a site path (`/account?tab=1`); pass it through `locals.href`.
 */
export function safeNext(raw: string | null | undefined, fallback = DEFAULT_NEXT): string {
  if (!raw || raw.length > 512) return fallback;
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) {
    return fallback;
  }
  const url = URL.parse(raw, 'http://site.invalid');
  if (url?.origin !== 'http://site.invalid') return fallback;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (FLOW_PATHS.has(path)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
