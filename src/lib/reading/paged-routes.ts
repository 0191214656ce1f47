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

function isPagedList(path: string): boolean {
  return PAGED_LISTS.some((pattern) => pattern.test(path));
}

/**
 * Maps `/…/page/N` onto the list page with `?page=N` (what the pages read), and answers the old
 * `?page=N` URLs (and `/page/1`) with the path form, so a link is the same on the server and in a
 * static copy. `null` for everything else.
 */
export function pagedRoute(pathname: string, search: URLSearchParams): PagedRoute {
  const reader = READER_PATH.exec(pathname);
  if (reader && reader[1] !== '/epaper/page') return readerRoute(reader, search);
  const segment = PAGE_SEGMENT.exec(pathname);
  if (segment) {
    const base = segment[1] || '/';
    const raw = segment[2] ?? '';
    if (!isPagedList(base)) return null;
    const rest = new URLSearchParams(search);
    rest.delete('page');
    if (raw === '1') return { redirect: pageHref(base, rest, 1) };
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
    // The reader clamps and checks both itself; a path form with a query form on top: the path wins.
    const rest = new URLSearchParams(search);
    rest.delete('page');
    rest.delete('zoom');
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
