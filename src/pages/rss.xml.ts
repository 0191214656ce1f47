import type { APIRoute } from 'astro';
import { NO_STORE } from '../lib/delivery/policy.ts';
import { rssFeed } from '../lib/reading/feeds.ts';
import { feedResponse } from '../lib/reading/feed-response.ts';
import { loadFeed } from '../lib/reading/loaders.ts';

export const GET: APIRoute = (context) =>
  feedResponse(context, async (match) => {
    const { posts, retryAfterSeconds } = await loadFeed(match.tenant);
    const body = await rssFeed(match, posts, retryAfterSeconds);
    const headers = new Headers({ 'Content-Type': 'application/xml' });
    // A stand-in feed (the newest posts lists have shown): no cache keeps it, so the next poll gets
    // the whole feed (bench/tenants.md says why a short feed is safe for feed readers).
    if (retryAfterSeconds !== undefined) {
      headers.set('Cache-Control', NO_STORE);
      headers.set('X-Robots-Tag', 'noindex');
    }
    return new Response(body, { headers });
  });
