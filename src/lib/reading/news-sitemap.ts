/**
 * Google News sitemaps (https://developers.google.com/search/docs/crawling-indexing/sitemaps/news-sitemap):
 * articles published in the last two days, at most 1,000 per file, each with the publication's name
 * and language, its publication date and title.
 */
import { isoInstant, readDate } from '../i18n/format.ts';
import type { PostSummary } from '../publishing/schema.ts';
import { newestFirst } from './article.ts';
import { escapeXml } from './sitemap.ts';

/** The format's limit of `<url>` entries per news sitemap. */
export const NEWS_SITEMAP_LIMIT = 1000;
/** Only articles published within this window belong in a news sitemap. */
const NEWS_WINDOW_MS = 48 * 60 * 60 * 1000;

export const NEWS_NAMESPACE = 'http://www.google.com/schemas/sitemap-news/0.9';
export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface NewsEntry {
  loc: string;
  title: string;
  /** ISO 8601 (W3C) publication time. */
  publishedAt: string;
}

export interface NewsPublication {
  name: string;
  /** ISO 639 code, from `newsLanguage`. */
  language: string;
}

/**
 * The language code Google News asks for: the ISO 639 language of a BCP 47 locale (`de-CH` → `de`),
 * except Chinese, which it wants as `zh-cn` (simplified) or `zh-tw` (traditional).
 */
export function newsLanguage(locale: string): string {
  const parsed = new Intl.Locale(locale).maximize();
  if (parsed.language === 'zh') return parsed.script === 'Hant' ? 'zh-tw' : 'zh-cn';
  return parsed.language;
}

// Read as every date of the site is: a time without an offset is UTC, not the server's zone.
const publishedTime = (post: Pick<PostSummary, 'published_at'>): number =>
  readDate(post.published_at)?.date.getTime() ?? Number.NaN;

/** Whether a post was published within the news window before `now` (not in the future). */
function isRecentNews(post: Pick<PostSummary, 'published_at'>, now: Date): boolean {
  const at = publishedTime(post);
  return !Number.isNaN(at) && at <= now.getTime() && now.getTime() - at <= NEWS_WINDOW_MS;
}

/** The posts a news sitemap lists: recent ones only, newest first, at most the format's limit. */
export function recentNews<T extends Pick<PostSummary, 'published_at'>>(
  posts: readonly T[],
  now: Date,
): T[] {
  return newestFirst(posts.filter((post) => isRecentNews(post, now))).slice(0, NEWS_SITEMAP_LIMIT);
}

type Dated = Pick<PostSummary, 'published_at'>;

/**
 * Reads a newest-first list page by page until a page reaches past the window, the format's limit
 * is met or the list ends: one call on most sites, at most 20 (pages of 50) for 1,000 articles.
 * With nothing recent it keeps the newest article: the sitemap schema wants one `<url>` at least,
 * and Google News passes over an article older than two days.
 */
export async function collectRecentNews<T extends Dated>(
  readPage: (page: number) => Promise<{ items: T[]; page: { last: number } }>,
  now: Date,
): Promise<T[]> {
  const posts: T[] = [];
  for (let page = 1; posts.length < NEWS_SITEMAP_LIMIT; page++) {
    const result = await readPage(page);
    posts.push(...result.items);
    const oldest = result.items.at(-1);
    if (page >= result.page.last || !oldest || !isRecentNews(oldest, now)) break;
  }
  const recent = recentNews(posts, now);
  const newest = posts.find((post) => publishedTime(post) <= now.getTime());
  return recent.length === 0 && newest ? [newest] : recent;
}

function newsUrl(entry: NewsEntry, publication: NewsPublication): string {
  return [
    `<url><loc>${escapeXml(entry.loc)}</loc><news:news>`,
    `<news:publication><news:name>${escapeXml(publication.name)}</news:name>`,
    `<news:language>${escapeXml(publication.language)}</news:language></news:publication>`,
    `<news:publication_date>${isoInstant(entry.publishedAt)}</news:publication_date>`,
    `<news:title>${escapeXml(entry.title)}</news:title>`,
    `</news:news></url>`,
  ].join('');
}

/** The news sitemap's XML. */
export function newsUrlset(entries: readonly NewsEntry[], publication: NewsPublication): string {
  const body = entries
    .slice(0, NEWS_SITEMAP_LIMIT)
    .map((entry) => newsUrl(entry, publication))
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:news="${NEWS_NAMESPACE}">\n${body}\n</urlset>\n`;
}
