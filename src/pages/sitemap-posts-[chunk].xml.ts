import type { APIRoute } from 'astro';
import { postSitemapEntries } from '../lib/reading/feeds.ts';
import { feedResponse, xmlResponse } from '../lib/reading/feed-response.ts';
import { parsePage } from '../lib/reading/pagination.ts';
import { urlset } from '../lib/reading/sitemap.ts';

export const GET: APIRoute = (context) =>
  feedResponse(
    context,
    async (match) => {
      // Digits only, as a page number (`1e300` or twenty nines would ask the API for a page it
      // refuses), written as the index writes it (`01` would be a second address of `1`).
      const raw = context.params.chunk;
      const chunk = raw ? parsePage(raw) : null;
      if (chunk === null || String(chunk) !== raw) return null;
      const entries = await postSitemapEntries(match, chunk);
      return entries ? xmlResponse(urlset(entries)) : null;
    },
    3600,
  );
