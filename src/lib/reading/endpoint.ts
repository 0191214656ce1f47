import type { APIContext } from 'astro';
import { listTags } from '../delivery/cache-tags.ts';
import type { TenantMatch } from '../tenants/resolution.ts';
import { classify, isTemporary } from '../failures/classify.ts';

/**
 * Feeds and sitemaps: cacheable like pages, and on an outage a plain 503 with `Retry-After`
 * (feed readers and crawlers retry), never a 500.
 */
export async function feedResponse(
  context: APIContext,
  build: (match: TenantMatch) => Promise<Response | null>,
  maxAge = 600,
): Promise<Response> {
  const match = context.locals.site;
  if (!match) return new Response('Not found', { status: 404 });
  try {
    const response = await build(match);
    if (!response)
      return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
    response.headers.set(
      'Cache-Control',
      `public, max-age=0, s-maxage=${maxAge}, stale-while-revalidate=${maxAge * 6}`,
    );
    // Feeds and sitemaps list posts: dropped with the lists when posts change (src/lib/freshness/).
    context.cache.set({ maxAge, swr: maxAge * 6, tags: listTags(match.tenant.id) });
    return response;
  } catch (error) {
    const failure = classify(error);
    if (failure.kind === 'not-found') return new Response('Not found', { status: 404 });
    if (!isTemporary(failure)) throw error;
    return new Response('Temporarily unavailable', {
      status: 503,
      headers: {
        'Retry-After': String(failure.retryAfterSeconds ?? 60),
        'Cache-Control': 'no-store',
        'Content-Type': 'text/plain',
      },
    });
  }
}

export function xmlResponse(xml: string): Response {
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
