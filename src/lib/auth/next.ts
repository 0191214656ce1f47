/** `/login` (or `/register`) that goes on to the site path `next`; pass it through `locals.href`. */
export function signInPath(next: string, page: 'login' | 'register' = 'login'): string {
  return `/${page}?${new URLSearchParams({ next }).toString()}`;
}

/** Why the login page was opened, said there: a logout, or a sign-in the API no longer takes. */
const SIGN_IN_NOTICES = {
  'signed-out': 'login.signedOut',
  'session-ended': 'login.sessionEnded',
} as const;

/** The login page that says the reader's session has ended, then goes on to `next`. */
export function sessionEndedPath(next: string): string {
  return `${signInPath(next)}&session-ended`;
}

/** The message key for the login page's address (`?signed-out`, `?session-ended`), if any. */
export function signInNotice(params: URLSearchParams) {
  const reason = Object.keys(SIGN_IN_NOTICES).find((name) => params.has(name));
  return reason && SIGN_IN_NOTICES[reason as keyof typeof SIGN_IN_NOTICES];
}

/** Where a sign-in goes when `?next=` is absent or unsafe. */
export const DEFAULT_NEXT = '/account';

// Pages that would loop back into the sign-in flow.
const FLOW_PATHS = new Set(['/login', '/register', '/logout']);

/** The longest `next` kept: it travels in the sign-in forms' own address (./form-page.ts). */
export const NEXT_MAX_LENGTH = 512;

/** Stands in for the tenant's origin when none is given: only same-origin paths come out anyway. */
const SITE_ORIGIN = 'https://site.invalid';

/**
 * A same-site path to continue to after signing in, or `fallback`. The value is resolved with the
 * URL parser against the site's origin (as a browser would resolve a `Location`), and passes only
 * when it stays on that origin and its normalised path cannot be read as another host: no scheme,
 * no `//host`, `/\host` or `/.//host` (dot segments removed first), no control characters or
 * backslashes anywhere. The result is a site path (`/account?tab=1`); pass it through `locals.href`.
 */
export function safeNext(
  raw: string | null | undefined,
  fallback = DEFAULT_NEXT,
  origin: string = SITE_ORIGIN,
): string {
  if (!raw || raw.length > NEXT_MAX_LENGTH) return fallback;
  // The parser drops tabs and newlines and reads `\` as `/`: refuse them rather than guess.
  if (!raw.startsWith('/') || /[\\\u0000-\u001f\u007f-\u009f]/.test(raw)) return fallback;
  const base = URL.parse(origin);
  const url = base && URL.parse(raw, base);
  if (!base || !url || url.origin !== base.origin) return fallback;
  // After normalisation (`/./`, `/../`), a path that starts with `//` is a host to a browser.
  if (url.pathname.startsWith('//') || !url.pathname.startsWith('/')) return fallback;
  if (url.username || url.password) return fallback;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (FLOW_PATHS.has(path)) return fallback;
  // Percent-encoding can make a short address long (`é` → `%C3%A9`): the form must still take it.
  const next = `${url.pathname}${url.search}${url.hash}`;
  return next.length > NEXT_MAX_LENGTH ? fallback : next;
}

// The sign-in pages, and the account pages a sign-in never comes back to (the login page would
// send the reader round).
const SIGN_IN_PAGE = /^\/(login|register)\/?$/;
const ACCOUNT_PAGE = /^\/(login|logout|register|account)(\/|$)/;

/**
 * Where the header's "Log in" goes from the page at `currentPath` (a site path with its query):
 * back to that page after signing in; from the login and register pages on to their own `next`.
 */
export function loginLinkPath(currentPath: string): string {
  const url = new URL(currentPath, SITE_ORIGIN);
  if (!ACCOUNT_PAGE.test(url.pathname)) return signInPath(currentPath);
  const next = SIGN_IN_PAGE.test(url.pathname) && safeNext(url.searchParams.get('next'), '');
  return next ? signInPath(next) : '/login';
}
