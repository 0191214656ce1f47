import type { APIRoute } from 'astro';
import { rssFeed } from '../lib/reading/feeds.ts';
import { feedResponse } from '../lib/reading/feed-response.ts';
import { loadFeed } from '../lib/reading/loaders.ts';
import { standIn } from '../lib/render/page-respond.ts';

export const GET: APIRoute = (context) =>
  feedResponse(context, async (match) => {
    const { posts, retryAfterSeconds } = await loadFeed(match.tenant);
    const body = await rssFeed(match, posts, retryAfterSeconds);
    const headers = new Headers({ 'Content-Type': 'application/xml' });
    // A stand-in feed (the newest posts lists have shown): the next poll gets the whole feed
    // (bench/tenants.md says why a short feed is safe for feed readers).
    if (retryAfterSeconds !== undefined) standIn(headers);
    return new Response(body, { headers });
  });
