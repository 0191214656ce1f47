import type { CacheOptions } from 'astro';
import { currentRequest } from '../log/request-context.ts';
import { tenantOfRequest } from '../request/public-origin.ts';

/**
 * Route cache tags (and the edge's surrogate keys): the one place they are spelled, used by the
 * pages that set them and by the invalidations that drop them (src/lib/freshness/invalidation.ts),
 * so the two cannot disagree.
 *
 * | tag                       | carried by                                                     |
 * | ------------------------- | -------------------------------------------------------------- |
 * | `<tenant>`                | every page (`cacheHeaders` below)                              |
 * | `<tenant>:posts`          | pages that list the newest posts: home, search, the category   |
 * |                           | and tag indexes, feeds and sitemaps (never a post's own page)  |
 * | `<tenant>:post:<slug>`    | the post's page, and each post page showing it as related      |
 * | `<tenant>:category:<slug>`| the category's pages of posts                                  |
 * | `<tenant>:tag:<slug>`     | the tag's pages of posts                                       |
 * | `<tenant>:tagged:<slug>`  | the pages of posts that carry the tag (a purge of the tag)     |
 * | `<tenant>:epaper`, `<tenant>:streams` | the e-paper and live stream pages                  |
 *
 * A new post drops `:posts`, its category and its tags, not the pages of older posts; a changed
 * post drops the same and the pages that show it.
 */
// Slugs escaped: tags travel as headers (no character above U+00FF) split at spaces and commas.
const part = encodeURIComponent;

export const tagOf = {
  tenant: (tenant: string) => tenant,
  lists: (tenant: string) => `${tenant}:posts`,
  post: (tenant: string, slug: string) => `${tenant}:post:${part(slug)}`,
  category: (tenant: string, slug: string) => `${tenant}:category:${part(slug)}`,
  tag: (tenant: string, slug: string) => `${tenant}:tag:${part(slug)}`,
  tagged: (tenant: string, slug: string) => `${tenant}:tagged:${part(slug)}`,
  epaper: (tenant: string) => `${tenant}:epaper`,
  streams: (tenant: string) => `${tenant}:streams`,
};

interface TaggedPost {
  slug: string;
  tags: readonly { slug?: string | null | undefined }[];
}

/** A post's page: the post, the related posts it shows, and its tags for a purge by tag. */
export function postPageTags(
  tenant: string,
  post: TaggedPost,
  related: readonly { slug: string }[],
): string[] {
  return [
    ...new Set([
      tagOf.post(tenant, post.slug),
      ...related.map((shown) => tagOf.post(tenant, shown.slug)),
      ...post.tags.flatMap((tag) => (tag.slug ? [tagOf.tagged(tenant, tag.slug)] : [])),
    ]),
  ];
}

/**
 * The headers of a cacheable response (the route cache provider's `setHeaders`): Astro's own
 * (`CDN-Cache-Control`, `Cache-Tag` for the route cache, which Astro removes before sending) plus
 * the tenant's tag on every page and `Surrogate-Key` with the same tags for an edge or CDN that
 * purges by key (docs/deploy.md).
 */
export function cacheHeaders(options: CacheOptions, request: Request): Headers {
  const headers = new Headers();
  const directives = [
    ...(options.maxAge === undefined ? [] : [`max-age=${options.maxAge}`]),
    ...(options.swr === undefined ? [] : [`stale-while-revalidate=${options.swr}`]),
  ];
  if (directives.length > 0) headers.set('CDN-Cache-Control', directives.join(', '));
  // The tenant the middleware found: a `/<id>/` address reaches here rewritten, without its prefix.
  const tenant =
    currentRequest()?.tenant ?? tenantOfRequest(new URL(request.url), request.headers)?.tenant.id;
  const tags = [...new Set([...(tenant ? [tenant] : []), ...(options.tags ?? [])])];
  if (tags.length > 0) {
    headers.set('Cache-Tag', tags.join(', '));
    headers.set('Surrogate-Key', tags.join(' '));
  }
  if (options.lastModified) headers.set('Last-Modified', options.lastModified.toUTCString());
  if (options.etag) headers.set('ETag', options.etag);
  return headers;
}
