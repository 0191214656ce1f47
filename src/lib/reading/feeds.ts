import type { PostSummary } from '../publishing/schema.ts';
import type { TenantMatch } from '../tenants/resolution.ts';
import { publishingFor } from '../site/clients.ts';
import { absoluteUrl } from './seo.ts';
import { isStaticBuild, staticBookingEmbed } from '../static/mode.ts';
import { collectRecentNews, type NewsEntry } from './news-sitemap.ts';
import {
  POSTS_PER_SITEMAP,
  postSitemapCount,
  upstreamPagesForChunk,
  type SitemapEntry,
} from './sitemap.ts';

const UPSTREAM_PAGE_SIZE = 50;
const FEED_SIZE = 20;

export async function latestForFeed(match: TenantMatch): Promise<PostSummary[]> {
  return (await publishingFor(match.tenant).listPosts({ perPage: FEED_SIZE })).items;
}

/** Number of post sitemaps: one small upstream call for the total. */
export async function countPostSitemaps(match: TenantMatch): Promise<number> {
  const first = await publishingFor(match.tenant).listPosts({ perPage: 1 });
  return postSitemapCount(first.page.total);
}

/** The posts of sitemap `chunk`, read page by page (stops at the last upstream page). */
export async function postSitemapEntries(
  match: TenantMatch,
  requestUrl: URL,
  chunk: number,
): Promise<SitemapEntry[] | null> {
  const client = publishingFor(match.tenant);
  const entries: SitemapEntry[] = [];
  for (const page of upstreamPagesForChunk(chunk, UPSTREAM_PAGE_SIZE)) {
    const result = await client.listPosts({ page, perPage: UPSTREAM_PAGE_SIZE });
    if (page === 1 || result.items.length > 0 || entries.length > 0) {
      entries.push(
        ...result.items.map((post) => ({
          loc: absoluteUrl(match, requestUrl, `/posts/${post.slug}`),
          lastmod: post.updated_at ?? post.published_at,
        })),
      );
    }
    if (page >= result.page.last) break;
  }
  if (chunk > 1 && entries.length === 0) return null;
  return entries.slice(0, POSTS_PER_SITEMAP);
}

/** The articles of the news sitemap (last two days, newest first), as absolute addresses. */
export async function newsSitemapEntries(
  match: TenantMatch,
  requestUrl: URL,
  now: Date,
): Promise<NewsEntry[]> {
  const client = publishingFor(match.tenant);
  const posts = await collectRecentNews(
    (page) => client.listPosts({ page, perPage: UPSTREAM_PAGE_SIZE }),
    now,
  );
  return posts.map((post) => ({
    loc: absoluteUrl(match, requestUrl, `/posts/${post.slug}`),
    title: post.title,
    publishedAt: post.published_at ?? '',
  }));
}

/** Home, sections and archives: everything that is not a post. */
export async function pageSitemapEntries(
  match: TenantMatch,
  requestUrl: URL,
): Promise<SitemapEntry[]> {
  const client = publishingFor(match.tenant);
  const [categories, tags] = await Promise.all([client.listCategories(), client.listTags()]);
  const { features } = match.tenant;
  const paths = [
    '/',
    '/categories',
    '/tags',
    '/plans',
    ...(features.epaper ? ['/epaper'] : []),
    ...(features.streams ? ['/streams'] : []),
    // A static copy has a booking page only with the live server's embed.
    ...(features.booking && (!isStaticBuild() || staticBookingEmbed(match.tenant))
      ? ['/stay']
      : []),
    ...categories.map((category) => `/categories/${category.slug}`),
    ...tags.map((tag) => `/tags/${tag.slug}`),
  ];
  return paths.map((path) => ({ loc: absoluteUrl(match, requestUrl, path) }));
}
