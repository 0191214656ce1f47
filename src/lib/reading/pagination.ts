import type { PageInfo } from '../upstream/parse.ts';

/** `?page=` as a positive integer of at most `digits` digits; 1 when absent, `null` when malformed. */
export function parsePage(raw: string | null | undefined, digits = 6): number | null {
  if (raw === null || raw === undefined || raw === '') return 1;
  if (!/^\d+$/.test(raw) || raw.length > digits) return null;
  const page = Number(raw);
  return page >= 1 ? page : null;
}

export interface PageLink {
  page: number;
  href: string;
  current: boolean;
}

export interface PaginationModel {
  prev: string | null;
  next: string | null;
  /** Page numbers with `null` for a gap (…). */
  items: (PageLink | null)[];
}

/** Numbered pagination: first, last and a window around the current page; `?page=1` is the bare URL. */
export function paginate(
  info: PageInfo,
  hrefFor: (page: number) => string,
  window = 2,
): PaginationModel {
  const last = Math.max(1, info.last);
  const current = Math.min(Math.max(1, info.current), last);
  const pages = new Set<number>([1, last]);
  for (let page = current - window; page <= current + window; page += 1) {
    if (page >= 1 && page <= last) pages.add(page);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  // A gap (…) before a number that does not follow the one before.
  const items = sorted.flatMap((page, index): (PageLink | null)[] => {
    const link = { page, href: hrefFor(page), current: page === current };
    return page - (sorted[index - 1] ?? page) > 1 ? [null, link] : [link];
  });
  return {
    prev: current > 1 ? hrefFor(current - 1) : null,
    next: current < last ? hrefFor(current + 1) : null,
    items,
  };
}

/** `params` without the `names`, as a query string (`?a=1`, or empty when nothing is left). */
export function queryWithout(params: URLSearchParams | string, ...names: string[]): string {
  const rest = new URLSearchParams(params);
  for (const name of names) rest.delete(name);
  const query = rest.toString();
  return query ? `?${query}` : '';
}

/** The list URL for a page number: `/page/2`, `/categories/x/page/2` (static hosts ignore query strings); other query parameters (`q`, `tenant`) kept. */
export function pageHref(path: string, params: URLSearchParams, page: number): string {
  const base = page <= 1 ? path : `${path === '/' ? '' : path.replace(/\/$/, '')}/page/${page}`;
  return `${base}${queryWithout(params, 'page')}`;
}
