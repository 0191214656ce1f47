import { parseZoom, readerPath } from '../epaper/reader.ts';
import { pageHref, parsePage, queryWithout } from './pagination.ts';

/** Lists paginated by path (search keeps its `?q=`: `/search/page/2?q=ferry`). */
const PAGED_LISTS = [
  /^\/$/,
  /^\/search$/,
  /^\/categories\/[^/]+$/,
  /^\/tags\/[^/]+$/,
  /^\/epaper$/,
  /^\/streams$/,
];

const PAGE_SEGMENT = /^(.*?)\/page\/([^/]*)\/?$/;

/** The e-paper reader by path: `/epaper/<slug>/page/3`, `/epaper/<slug>/page/3/zoom/1.5`, `/epaper/<slug>/zoom/2`. */
const READER_PATH = /^(\/epaper\/[^/]+)(?:\/page\/([^/]*))?(?:\/zoom\/([^/]*))?\/?$/;

export type PagedRoute = { redirect: string } | { rewrite: string } | null;

/** A post, category or tag by slug (with a category's or tag's later pages). */
const SLUG_PATH = /^\/(?:posts\/[^/]+\/?|(?:categories|tags)\/[^/]+(?:\/page\/[^/]*)?\/?)$/;

/**
 * The path with its slug in lower case: slugs are lower case (Laravel's `Str::slug`, the contract
 * mock's), so `/posts/Ferry` (typed, or mangled by a mail client) is `/posts/ferry`. Only ASCII
 * letters outside escapes change (`%C3%A9` stays as sent).
 */
function lowerCaseSlug(pathname: string): string {
  if (!SLUG_PATH.test(pathname) || !/[A-Z]/.test(pathname)) return pathname;
  return pathname.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (part) =>
    part.startsWith('%') ? part : part.toLowerCase(),
  );
}

function isPagedList(path: string): boolean {
  return PAGED_LISTS.some((pattern) => pattern.test(path));
}

/**
 * Answers a post's, category's or tag's address with an upper-case slug with its lower-case one,
 * maps `/…/page/N` onto the list page with `?page=N` (what the pages read), and answers the old
 * `?page=N` URLs (and `/page/1`) with the path form, so a link is the same on the server and in a
 * static copy. `null` for everything else.
 */
export function pagedRoute(pathname: string, search: URLSearchParams): PagedRoute {
  const lower = lowerCaseSlug(pathname);
  if (lower !== pathname) {
    // One hop to the final address: `/tags/Ferries/page/1` goes to `/tags/ferries` at once.
    const next = pagedRoute(lower, search);
    const query = search.toString();
    return next && 'redirect' in next ? next : { redirect: `${lower}${query ? `?${query}` : ''}` };
  }
  const reader = READER_PATH.exec(pathname);
  if (reader && reader[1] !== '/epaper/page') return readerRoute(reader, search);
  const segment = PAGE_SEGMENT.exec(pathname);
  if (segment) {
    const base = segment[1] || '/';
    const raw = segment[2] ?? '';
    if (!isPagedList(base)) return null;
    const rest = new URLSearchParams(queryWithout(search, 'page'));
    // `/page/1` is the list itself and `/page/02` is `/page/2`: one address per page.
    const page = parsePage(raw);
    if (page === 1 || (page !== null && String(page) !== raw))
      return { redirect: pageHref(base, rest, page) };
    // Anything else goes to the list with `?page=<raw>`, whose own check answers 404 when invalid.
    rest.set('page', raw);
    return { rewrite: `${base}?${rest.toString()}` };
  }
  const raw = search.get('page');
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (raw === null || !isPagedList(path) || !/^\d{1,6}$/.test(raw) || Number(raw) < 1) return null;
  return { redirect: pageHref(path, search, Number(raw)) };
}

/** The reader's page and zoom travel in the path; its query form answers with a redirect to it. */
function readerRoute(match: RegExpExecArray, search: URLSearchParams): PagedRoute {
  const [, base = '', page, zoom] = match;
  if (page !== undefined || zoom !== undefined) {
    // A path form with a query form on top: the path wins.
    const rest = new URLSearchParams(queryWithout(search, 'page', 'zoom'));
    // One address per page and zoom (`/page/02`, `/page/1`, `/zoom/1.50`, `/zoom/x` say it otherwise).
    const path = readerPath(base, parsePage(page) ?? 1, parseZoom(zoom));
    if (path !== match[0].replace(/\/$/, '')) return { redirect: `${path}${queryWithout(rest)}` };
    if (page !== undefined) rest.set('page', page);
    if (zoom !== undefined) rest.set('zoom', zoom);
    return { rewrite: `${base}?${rest.toString()}` };
  }
  const queryPage = search.get('page');
  const queryZoom = search.get('zoom');
  if (queryPage === null && queryZoom === null) return null;
  const path = readerPath(base, parsePage(queryPage) ?? 1, parseZoom(queryZoom));
  return { redirect: `${path}${queryWithout(search, 'page', 'zoom')}` };
}

/**
 * The address the visitor asked for (site path and query, without a tenant prefix) of a page
 * rendered at `rendered`: a `/…/page/N` address is rendered at `?page=N` (`pagedRoute`), so the
 * parameters it took from the path leave the query again. What the header marks and signs in back to.
 */
export function askedAddress(askedPath: string, rendered: URL): string {
  const route = pagedRoute(askedPath, new URLSearchParams());
  const fromPath =
    route && 'rewrite' in route ? [...new URL(route.rewrite, rendered).searchParams.keys()] : [];
  return `${askedPath}${queryWithout(rendered.searchParams, ...fromPath)}`;
}
