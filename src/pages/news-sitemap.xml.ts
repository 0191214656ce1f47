import type { APIRoute } from 'astro';
import { newsSitemapEntries } from '../lib/reading/feeds.ts';
import { feedResponse, xmlResponse } from '../lib/reading/feed-response.ts';
import { newsLanguage, newsUrlset } from '../lib/reading/news-sitemap.ts';

/** Google News: the tenant's articles of the last two days, with its name and language. */
export const GET: APIRoute = (context) =>
  feedResponse(
    context,
    async (match) => {
      const entries = await newsSitemapEntries(match, new Date());
      // Nothing published yet: not found (an empty urlset fails the schema; the index omits it).
      if (entries.length === 0) return null;
      const { name, locale } = match.tenant;
      return xmlResponse(newsUrlset(entries, { name, language: newsLanguage(locale) }));
    },
    300,
  );
