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
