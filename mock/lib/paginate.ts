import { z } from 'zod';
import { int, optional } from './validation.ts';

/** Query schema for page/per_page; above-max per_page is clamped, below 1 is a 422. */
export const pageQuery = (defaultPerPage: number, maxPerPage: number) =>
  z.object({
    page: optional(int('page', { min: 1 })).transform((v) => v ?? 1),
    per_page: optional(int('per_page', { min: 1 })).transform((v) =>
      Math.min(v ?? defaultPerPage, maxPerPage),
    ),
  });

export type PageParams = { page: number; per_page: number };

/** Laravel LengthAwarePaginator resource output; links keep the other query parameters. */
export function paginate<T, R>(items: readonly T[], p: PageParams, url: string, map: (x: T) => R) {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / p.per_page));
  const start = (p.page - 1) * p.per_page;
  const slice = items.slice(start, start + p.per_page);
  const u = new URL(url);
  const path = `${u.origin}${u.pathname}`;
  const link = (page: number) => {
    const q = new URLSearchParams(u.search);
    q.set('page', String(page));
    return `${path}?${q.toString()}`;
  };
  return {
    data: slice.map(map),
    meta: {
      current_page: p.page,
      last_page: lastPage,
      per_page: p.per_page,
      total,
      from: slice.length ? start + 1 : null,
      to: slice.length ? start + slice.length : null,
      path,
    },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: p.page > 1 ? link(p.page - 1) : null,
      next: p.page < lastPage ? link(p.page + 1) : null,
    },
  };
}

/** Keeps the request's query but `page`/`cursor`, for building page URLs. */
function pageUrl(url: string) {
  const u = new URL(url);
  const path = `${u.origin}${u.pathname}`;
  return {
    path,
    with(key: 'page' | 'cursor', value: string) {
      const q = new URLSearchParams(u.search);
      q.delete('page');
      q.delete('cursor');
      q.set(key, value);
      return `${path}?${q.toString()}`;
    },
  };
}

/** Laravel's paginator returned straight from a controller (`->paginate()`): fields at the top. */
export function paginateRaw<T, R>(
  items: readonly T[],
  p: PageParams,
  url: string,
  map: (x: T) => R,
) {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / p.per_page));
  const start = (p.page - 1) * p.per_page;
  const slice = items.slice(start, start + p.per_page);
  const u = pageUrl(url);
  const at = (page: number) => u.with('page', String(page));
  const prev = p.page > 1 ? at(p.page - 1) : null;
  const next = p.page < lastPage ? at(p.page + 1) : null;
  return {
    current_page: p.page,
    data: slice.map(map),
    first_page_url: at(1),
    from: slice.length ? start + 1 : null,
    last_page: lastPage,
    last_page_url: at(lastPage),
    links: [
      { url: prev, label: '&laquo; Previous', active: false },
      ...Array.from({ length: lastPage }, (_, i) => ({
        url: at(i + 1),
        label: String(i + 1),
        active: i + 1 === p.page,
      })),
      { url: next, label: 'Next &raquo;', active: false },
    ],
    next_page_url: next,
    path: u.path,
    per_page: p.per_page,
    prev_page_url: prev,
    to: slice.length ? start + slice.length : null,
    total,
  };
}

type CursorPointer = { id: string; _pointsToNextItems: boolean };

const encodeCursor = (c: CursorPointer) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(raw: string | undefined): CursorPointer | undefined {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    const c = parsed as Partial<CursorPointer>;
    return typeof c.id === 'string' && typeof c._pointsToNextItems === 'boolean'
      ? { id: c.id, _pointsToNextItems: c._pointsToNextItems }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Laravel's cursor paginator returned straight from a controller (`->cursorPaginate()`): no page
 * numbers or total, `next_cursor` to follow; `page` is ignored. An unreadable cursor reads as
 * the first page, as in Laravel.
 */
export function cursorPaginate<T extends { id: string }, R>(
  items: readonly T[],
  perPage: number,
  cursor: string | undefined,
  url: string,
  map: (x: T) => R,
) {
  const pointer = decodeCursor(cursor);
  const at = pointer ? items.findIndex((x) => x.id === pointer.id) : -1;
  let start = 0;
  if (pointer && at >= 0) start = pointer._pointsToNextItems ? at + 1 : Math.max(0, at - perPage);
  const end = pointer && at >= 0 && !pointer._pointsToNextItems ? at : start + perPage;
  const slice = items.slice(start, end);
  const first = slice[0];
  const last = slice.at(-1);
  const next =
    last && end < items.length ? encodeCursor({ id: last.id, _pointsToNextItems: true }) : null;
  const prev =
    first && start > 0 ? encodeCursor({ id: first.id, _pointsToNextItems: false }) : null;
  const u = pageUrl(url);
  return {
    data: slice.map(map),
    path: u.path,
    per_page: perPage,
    next_cursor: next,
    next_page_url: next && u.with('cursor', next),
    prev_cursor: prev,
    prev_page_url: prev && u.with('cursor', prev),
  };
}
