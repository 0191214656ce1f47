import { escapeHtml } from '../content/escape.ts';
import { readDate } from '../i18n/format.ts';

/** Sitemaps as XML text. Posts are split into files small enough to build within the upstream budget. */

export const POSTS_PER_SITEMAP = 1000;
/** The protocol's own limit; chunks stay far below it. */
const SITEMAP_URL_LIMIT = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod?: string | null | undefined;
}

/** Characters XML 1.0 forbids (C0 controls but tab, newline and return; U+FFFE, U+FFFF): no parser reads a document with one. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** `value` without the characters XML cannot hold (a title from upstream may carry a stray control character). */
export function xmlChars(value: string): string {
  return value.replace(NOT_XML, '');
}

export function escapeXml(value: string): string {
  return escapeHtml(xmlChars(value));
}

function lastmod(value: string | null | undefined): string {
  const date = readDate(value)?.date;
  return date ? `<lastmod>${date.toISOString()}</lastmod>` : '';
}

export function urlset(entries: readonly SitemapEntry[]): string {
  const body = entries
    .slice(0, SITEMAP_URL_LIMIT)
    .map((entry) => `<url><loc>${escapeXml(entry.loc)}</loc>${lastmod(entry.lastmod)}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function sitemapIndex(locations: readonly string[]): string {
  const body = locations.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
}

/**
 * How many post sitemaps a site with `totalPosts` needs: none without posts (the schema wants one
 * `<url>` in a urlset; the index still lists the pages' sitemap).
 */
export function postSitemapCount(totalPosts: number): number {
  return Math.ceil(totalPosts / POSTS_PER_SITEMAP);
}

/** The upstream list pages (at `perPage`) that hold the posts of post sitemap `chunk` (1-based). */
export function upstreamPagesForChunk(chunk: number, perPage: number): number[] {
  const perChunk = POSTS_PER_SITEMAP / perPage;
  const first = (chunk - 1) * perChunk + 1;
  return Array.from({ length: perChunk }, (_, index) => first + index);
}
