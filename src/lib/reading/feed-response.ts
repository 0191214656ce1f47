import type { APIContext } from 'astro';
import { tagOf } from '../delivery/cache-tags.ts';
import type { TenantMatch } from '../tenants/resolution.ts';
import { failureAnswer, sharedCache, uncached } from '../delivery/policy.ts';

/**
 * Feeds and sitemaps: cacheable like pages, and on an outage a plain 503 with `Retry-After`
 * (feed readers and crawlers retry), never a 500. A response that already says how it is kept (a
 * stand-in feed: `no-store`) keeps that and stays out of the route cache.
 */
export async function feedResponse(
  context: APIContext,
  build: (match: TenantMatch) => Promise<Response | null>,
  maxAge = 600,
): Promise<Response> {
  const match = context.locals.tenantMatchOrNull;
  if (!match) return uncached(404, 'Not found');
  try {
    const response = await build(match);
    if (!response) return uncached(404, 'Not found');
    if (response.headers.has('Cache-Control')) return response;
    response.headers.set('Cache-Control', sharedCache(maxAge, maxAge * 6));
    // Feeds and sitemaps list posts: dropped with the lists when posts change (src/lib/freshness/).
    context.cache.set({ maxAge, swr: maxAge * 6, tags: [tagOf.lists(match.tenant.id)] });
    return response;
  } catch (error) {
    return failureAnswer(error);
  }
}

export function xmlResponse(xml: string): Response {
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
