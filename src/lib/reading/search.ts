/**
 * Search results as a reader scans them: the query's words marked, newest first or best match.
 * The publishing API has no sort parameter and answers newest first (docs/api-assumptions.md), so
 * "best match" ranks the page shown, never across pages.
 */
import { escapeRegExp, withoutBidiControls } from '../content/escape.ts';
import type { I18n } from '../i18n/index.ts';
import type { PostSummary } from '../publishing/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { newestFirst } from './article.ts';

export const SEARCH_SORTS = ['newest', 'relevance'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/**
 * `?q=` as searched: without bidi controls (an override, U+202E, in a link's query turned the
 * page's own words after it around) and with control characters as spaces, at most 200 UTF-16
 * units (the form's `maxlength`), never half an emoji.
 */
export function searchQuery(raw: string | null): string {
  return withoutBidiControls(raw ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .slice(0, 200)
    .replace(/[\uD800-\uDBFF]$/, '');
}

/** The search page's title and heading: the query, and from page 2 on its number, as on every list. */
export function searchTitle(t: I18n['t'], query: string, page: number): string {
  const trimmed = query.trim();
  const title = trimmed ? t('search.titleQuery', { query: trimmed }) : t('nav.search');
  return page > 1 ? t('page.title', { title, page }) : title;
}

/**
 * Whether search page `page` does not exist: past the last page of the results, or any page but
 * the first without a query (`results` null): not found, as on the other lists.
 */
export function searchPageMissing(
  page: number,
  results: { page: { last: number } } | null,
): boolean {
  return page > Math.max(1, results?.page.last ?? 1);
}

/**
 * The line above the results: how many there are, or, from an API that does not count them
 * (`simplePaginate`), which of them this page shows while more follow (on the last page, every
 * earlier page was full, so the count is known again).
 */
export function searchCount(t: I18n['t'], query: string, results: Paged<unknown>): string {
  const { current, last, perPage, total } = results.page;
  const before = (current - 1) * perPage;
  if (total === undefined && last > current) {
    return t('search.resultsMore', { from: before + 1, to: before + perPage, query });
  }
  return t('search.results', { count: total ?? before + results.items.length, query });
}

/** `?sort=`: anything but a known order is the default, newest first (the API's own order). */
export function searchSort(value: string | null): SearchSort {
  return SEARCH_SORTS.find((sort) => sort === value) ?? 'newest';
}

/**
 * The search's query as its page shows it (`q` as searched, `sort` unless it is the default), or
 * `null` when `params` already say that. A made-up or default `?sort=`, a `?q=` longer than the form
 * takes or with spaces around it is redirected to it, so no cache holds one copy per spelling.
 */
export function shownSearchQuery(params: URLSearchParams): URLSearchParams | null {
  const q = searchQuery(params.get('q')).trim();
  const sort = searchSort(params.get('sort'));
  const shown = new URLSearchParams(q ? { q, ...(sort === 'newest' ? {} : { sort }) } : {});
  const same = ['q', 'sort'].every((name) => params.get(name) === shown.get(name));
  return same ? null : shown;
}

/** The words of a query worth marking: letters or digits, two or more, each once, at most ten. */
export function queryTerms(query: string): string[] {
  const words = query.toLocaleLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  return [...new Set(words)].slice(0, 10);
}

export interface Segment {
  text: string;
  mark: boolean;
}

function termPattern(terms: readonly string[]): RegExp | null {
  if (terms.length === 0) return null;
  // Longest first, so "harbourside" is marked whole rather than as "harbour" + "side"; only at the
  // start of a word ("Bergbahn" for "berg"), never inside one ("another" for "the").
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives.join('|')})`, 'giu');
}

/** `text` cut into plain and marked parts (rendered as text and `<mark>`, never as HTML). */
export function highlight(text: string, terms: readonly string[]): Segment[] {
  const pattern = termPattern(terms);
  if (!pattern) return text ? [{ text, mark: false }] : [];
  // `split` with one capture group alternates: the matches sit at the odd indexes.
  return text
    .split(pattern)
    .map((part, index) => ({ text: part, mark: index % 2 === 1 }))
    .filter((segment) => segment.text !== '');
}

function hits(text: string, pattern: RegExp | null): number {
  return pattern ? (text.match(pattern)?.length ?? 0) : 0;
}

/** How well a post matches: a word in the headline counts three times one in the excerpt. */
function matchScore(post: Pick<PostSummary, 'title' | 'excerpt'>, terms: readonly string[]) {
  const pattern = termPattern(terms);
  return 3 * hits(post.title, pattern) + hits(post.excerpt, pattern);
}

/** The page's results in the reader's order; ties keep the newest first. */
export function orderResults<T extends Pick<PostSummary, 'title' | 'excerpt' | 'published_at'>>(
  posts: readonly T[],
  sort: SearchSort,
  terms: readonly string[],
): T[] {
  const newest = newestFirst(posts);
  if (sort === 'newest') return newest;
  const scores = new Map(newest.map((post) => [post, matchScore(post, terms)]));
  return [...newest].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0));
}

/** At most `max` characters of the excerpt, starting near its first marked word. */
export function excerptAround(excerpt: string, terms: readonly string[], max = 180): string {
  if (excerpt.length <= max) return excerpt;
  const pattern = termPattern(terms);
  const first = pattern ? excerpt.search(pattern) : -1;
  const start = first > max / 3 ? excerpt.lastIndexOf(' ', first - max / 3) + 1 : 0;
  const end = Math.min(excerpt.length, start + max);
  const cut = excerpt.slice(start, end);
  const trimmed = end < excerpt.length ? cut.slice(0, cut.lastIndexOf(' ')) || cut : cut;
  return `${start > 0 ? '… ' : ''}${trimmed}${end < excerpt.length ? ' …' : ''}`;
}
