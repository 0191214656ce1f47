import type { APIRoute } from 'astro';
import { pageSitemapEntries } from '../lib/reading/feeds.ts';
import { feedResponse, xmlResponse } from '../lib/reading/feed-response.ts';
import { urlset } from '../lib/reading/sitemap.ts';

export const GET: APIRoute = (context) =>
  feedResponse(context, async (match) => xmlResponse(urlset(await pageSitemapEntries(match))));
