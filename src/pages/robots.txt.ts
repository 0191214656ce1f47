import type { APIRoute } from 'astro';
import { ROBOTS, publicCache } from '../lib/delivery/policy.ts';
import { absoluteUrl } from '../lib/reading/seo.ts';

export const GET: APIRoute = ({ locals, cache }) => {
  const match = locals.tenantMatchOrNull;
  if (!match) return new Response('Not found', { status: 404 });
  // In the route cache with the tenant's tag: a reload of tenants.json drops it here and at the edge.
  cache.set(ROBOTS);
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /_actions/',
    'Disallow: /embed/',
    'Disallow: /search',
    '',
    // The index lists the news sitemap when the site has posts (a site without has none: 404).
    `Sitemap: ${absoluteUrl(match, '/sitemap.xml')}`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': publicCache(ROBOTS),
    },
  });
};
