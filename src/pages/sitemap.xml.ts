import type { APIRoute } from 'astro';
import { countPostSitemaps } from '../lib/reading/feeds.ts';
import { feedResponse, xmlResponse } from '../lib/reading/feed-response.ts';
import { absoluteUrl } from '../lib/reading/seo.ts';
import { sitemapIndex } from '../lib/reading/sitemap.ts';

/**
 * A sitemap index: the section pages, the news sitemap (last two days), then the posts in chunks
 * (any size of site, within the upstream budget). A site without posts lists the pages only: the
 * other two would be empty, and answer 404.
 */
export const GET: APIRoute = (context) =>
  feedResponse(context, async (match) => {
    const chunks = await countPostSitemaps(match);
    const locations = [
      absoluteUrl(match, '/sitemap-pages.xml'),
      ...(chunks > 0 ? [absoluteUrl(match, '/news-sitemap.xml')] : []),
      ...Array.from({ length: chunks }, (_, index) =>
        absoluteUrl(match, `/sitemap-posts-${index + 1}.xml`),
      ),
    ];
    return xmlResponse(sitemapIndex(locations));
  });
