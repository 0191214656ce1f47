import { PAGE_PARAM as COMMENTS_PAGE_PARAM } from '../comments/section.ts';

/**
 * What a shareable page's URL may carry: every page a shared cache stores (route cache, edge, CDN),
 * with the query parameters that change it; any other parameter is redirected away, so a stranger
 * cannot make one cache entry per made-up query. The route cache stores no route missing here.
 */

/** Longest path and query (in bytes as sent) any page takes; longer requests get 414. */
export const MAX_URL_LENGTH = 2048;

/** Previews pick the tenant with `?tenant=` on any page. */
const EVERYWHERE = ['tenant'];

const SHAREABLE: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  // Lists (`?page=` is answered with the path form by paged-routes.ts).
  [/^\/(page\/[^/]+)?$/, ['page']],
  [/^\/(categories|tags)$/, []],
  [/^\/(categories|tags)\/[^/]+(\/page\/[^/]+)?$/, ['page']],
  [/^\/(epaper|streams)(\/page\/[^/]+)?$/, ['page']],
  [/^\/search(\/page\/[^/]+)?$/, ['q', 'page', 'sort']],
  // The e-paper reader (page and zoom by path; their query form redirects to it).
  [/^\/epaper\/[^/]+(\/page\/[^/]+)?(\/zoom\/[^/]+)?$/, ['page', 'zoom']],
  [/^\/posts\/[^/]+$/, ['reply', COMMENTS_PAGE_PARAM]],
  [/^\/streams\/[^/]+$/, []],
  [/^\/plans(\/[^/]+)?$/, []],
  [
    /^\/(rss\.xml|sitemap\.xml|sitemap-pages\.xml|news-sitemap\.xml|sitemap-posts-[^/]+\.xml|robots\.txt)$/,
    [],
  ],
  [/^\/embed\/booking\.js$/, []],
];

/**
 * The query parameters that change the page at `pathname` (the path inside the tenant, without its
 * `/<id>` prefix), or `null` when the route is not a shareable page. `preview: false` (the tenant
 * came from the host, a path prefix or `MASTHEAD_TENANT`): `?tenant=` changes nothing there.
 */
export function shareableParams(pathname: string, preview = true): ReadonlySet<string> | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const route = SHAREABLE.find(([pattern]) => pattern.test(path));
  return route ? new Set([...(preview ? EVERYWHERE : []), ...route[1]]) : null;
}

/**
 * For the route cache, which sees the request before the tenant is known: the path as it is, or
 * without its first segment (a `/<id>/` prefix). `null` when neither is a shareable page.
 */
export function shareableParamsOfRequestPath(pathname: string): ReadonlySet<string> | null {
  const direct = shareableParams(pathname);
  const afterPrefix = /^\/[^/]+(\/.*)?$/.exec(pathname);
  const prefixed = afterPrefix ? shareableParams(afterPrefix[1] ?? '/') : null;
  return direct && prefixed ? new Set([...direct, ...prefixed]) : (direct ?? prefixed);
}

/** The query with only `allowed` parameters, in a stable order (one cache key per page). */
export function cleanQuery(search: URLSearchParams, allowed: ReadonlySet<string>): string {
  const kept = new URLSearchParams([...search].filter(([name]) => allowed.has(name)));
  kept.sort();
  const query = kept.toString();
  return query ? `?${query}` : '';
}

/**
 * The path with one spelling per character (RFC 3986, 6.2.2): an escaped letter, digit or `-._~`
 * decoded (`/posts/%74all` is `/posts/tall`), any other escape in upper case (`%c3%a9` is `%C3%A9`,
 * as browsers and the site's own links write it).
 */
export function normalEscapes(path: string): string {
  return path.replace(/%[0-9a-f]{2}/gi, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return /[\w.~-]/.test(char) ? char : escape.toUpperCase();
  });
}

/**
 * The clean address when the page's path ends in a slash (`slashed`: `/posts/x/`, the site's links
 * never do; a `/<id>/` prefix's home is not one), is escaped otherwise than `normalEscapes` writes
 * it, or the query holds a parameter the page does not read, or one twice (pages read the first);
 * `null` when it is clean. The parameters kept stay in the visitor's order, so a clean URL never
 * redirects.
 */
export function cleanRedirect(url: URL, allowed: ReadonlySet<string>, slashed = false) {
  // `url` is the request as sent (its path still escaped, so the Location header stays ASCII).
  // One leading slash: `//host` would be another site to the browser.
  const path = normalEscapes(slashed ? url.pathname.replace(/\/+$/, '') : url.pathname).replace(
    /^\/+/,
    '/',
  );
  const all = [...url.searchParams];
  const seen = new Set<string>();
  const kept = all.filter(([name]) => allowed.has(name) && !seen.has(name) && seen.add(name));
  if (kept.length === all.length && path === url.pathname) return null;
  const query = new URLSearchParams(kept).toString();
  return `${path}${query ? `?${query}` : ''}`;
}

/**
 * The raw path (as sent) has a broken escape (`/x/%`, `%zz`), or decodes to something a second
 * decoding changes (`%252E` → `%2E` → `.`): Astro decodes a path until it stops changing, so such a
 * path would reach a page as a different one than the visitor's escapes say. Either is refused.
 */
export function isUnreadablePath(rawPathname: string): boolean {
  let once: string;
  try {
    once = decodeURI(rawPathname);
  } catch {
    return true;
  }
  try {
    return decodeURI(once) !== once;
  } catch {
    return false; // `/a%25b/` is the path `/a%b/`, decoded once
  }
}
