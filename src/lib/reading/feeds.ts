import { getRssString } from '@astrojs/rss';
import type { PostSummary } from '../publishing/schema.ts';
import { readDate } from '../i18n/format.ts';
import type { TenantMatch } from '../tenants/resolution.ts';
import { publishingFor } from '../services/clients.ts';
import { absoluteUrl } from './seo.ts';
import { tenantOrigin } from '../tenants/origin.ts';
import { hasStayPage } from './navigation.ts';
import { collectRecentNews, type NewsEntry } from './news-sitemap.ts';
import {
  POSTS_PER_SITEMAP,
  escapeXml,
  postSitemapCount,
  xmlChars,
  upstreamPagesForChunk,
  type SitemapEntry,
} from './sitemap.ts';
import { categoryPath, postPath, tagPath } from './paths.ts';

const UPSTREAM_PAGE_SIZE = 50;

/**
 * The RSS 2.0 feed of the latest posts, valid to the W3C feed validator: RSS's `<author>` must be
 * an e-mail address, so an author is named with `dc:creator`; the channel names its own absolute
 * address (`atom:link rel="self"`, from the tenant's configured origin); each `guid` is the post's
 * permanent address. `comeBackSeconds` (a stand-in feed, ./loaders.ts `loadFeed`): its `<ttl>`, so a
 * reader that honours it asks again that soon (in minutes, at least one).
 */
export function rssFeed(
  match: Pick<TenantMatch, 'tenant' | 'origin'>,
  posts: readonly PostSummary[],
  comeBackSeconds?: number,
): Promise<string> {
  const { tenant } = match;
  const self = absoluteUrl(match, '/rss.xml');
  return getRssString({
    title: xmlChars(tenant.name),
    description: xmlChars(tenant.description || tenant.name),
    site: tenantOrigin(match),
    xmlns: { atom: 'http://www.w3.org/2005/Atom', dc: 'http://purl.org/dc/elements/1.1/' },
    customData:
      `<language>${escapeXml(tenant.locale)}</language>` +
      (comeBackSeconds === undefined ? '' : `<ttl>${Math.ceil(comeBackSeconds / 60)}</ttl>`) +
      `<atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
    items: posts.map((post) => {
      const published = readDate(post.published_at);
      return {
        title: xmlChars(post.title),
        link: absoluteUrl(match, postPath(post.slug)),
        ...(published ? { pubDate: published.date } : {}),
        description: xmlChars(post.excerpt),
        ...(post.author?.name
          ? { customData: `<dc:creator>${escapeXml(post.author.name)}</dc:creator>` }
          : {}),
        categories: [post.category?.name, ...post.tags.map((tag) => tag.name)]
          .filter((name): name is string => Boolean(name))
          .map(xmlChars),
      };
    }),
  });
}

/**
 * Number of post sitemaps: one small upstream call for the total; an API that does not count
 * (`simplePaginate`) is asked for the first post of each next sitemap until there is none.
 */
export async function countPostSitemaps(match: TenantMatch): Promise<number> {
  const client = publishingFor(match.tenant);
  const first = await client.listPosts({ perPage: 1 });
  if (first.page.total !== undefined) return postSitemapCount(first.page.total);
  let count = first.items.length;
  const firstOf = (chunk: number) =>
    client.listPosts({ perPage: 1, page: chunk * POSTS_PER_SITEMAP + 1 });
  while (count && (await firstOf(count)).items.length) count += 1;
  return count;
}

/** The posts of sitemap `chunk`, read page by page (stops at the last upstream page). */
export async function postSitemapEntries(
  match: TenantMatch,
  chunk: number,
): Promise<SitemapEntry[] | null> {
  const client = publishingFor(match.tenant);
  const entries: SitemapEntry[] = [];
  for (const page of upstreamPagesForChunk(chunk, UPSTREAM_PAGE_SIZE)) {
    const result = await client.listPosts({ page, perPage: UPSTREAM_PAGE_SIZE });
    entries.push(
      ...result.items.map((post) => ({
        loc: absoluteUrl(match, postPath(post.slug)),
        lastmod: post.updated_at ?? post.published_at,
      })),
    );
    if (page >= result.page.last) break;
  }
  // Past the last post, or a site without posts: not found (an empty urlset fails the schema).
  if (entries.length === 0) return null;
  return entries.slice(0, POSTS_PER_SITEMAP);
}

/** The articles of the news sitemap (last two days, newest first), as absolute addresses. */
export async function newsSitemapEntries(match: TenantMatch, now: Date): Promise<NewsEntry[]> {
  const client = publishingFor(match.tenant);
  const posts = await collectRecentNews(
    (page) => client.listPosts({ page, perPage: UPSTREAM_PAGE_SIZE }),
    now,
  );
  return posts.map((post) => ({
    loc: absoluteUrl(match, postPath(post.slug)),
    title: post.title,
    publishedAt: post.published_at ?? '',
  }));
}

/** Home, sections and archives: everything that is not a post. */
export async function pageSitemapEntries(match: TenantMatch): Promise<SitemapEntry[]> {
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
    ...(hasStayPage(match.tenant) ? ['/stay'] : []),
    ...categories.map((category) => categoryPath(category.slug)),
    ...tags.map(tagPath),
  ];
  return paths.map((path) => ({ loc: absoluteUrl(match, path) }));
}
