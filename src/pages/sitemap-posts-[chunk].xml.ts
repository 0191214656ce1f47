import type { APIRoute } from 'astro';
import { postSitemapEntries } from '../lib/reading/feeds.ts';
import { feedResponse, xmlResponse } from '../lib/reading/feed-response.ts';
import { urlset } from '../lib/reading/sitemap.ts';

export const GET: APIRoute = (context) =>
  feedResponse(
    context,
    async (match) => {
      const chunk = Number(context.params.chunk);
      if (!Number.isInteger(chunk) || chunk < 1) return null;
      const entries = await postSitemapEntries(match, chunk);
      return entries ? xmlResponse(urlset(entries)) : null;
    },
    3600,
  );
