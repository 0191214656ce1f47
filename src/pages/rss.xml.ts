import type { APIRoute } from 'astro';
import { latestForFeed, rssFeed } from '../lib/reading/feeds.ts';
import { feedResponse } from '../lib/reading/feed-response.ts';

export const GET: APIRoute = (context) =>
  feedResponse(context, async (match) => {
    const body = await rssFeed(match, await latestForFeed(match));
    return new Response(body, { headers: { 'Content-Type': 'application/xml' } });
  });
