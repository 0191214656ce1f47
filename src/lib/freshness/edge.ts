import { request } from 'node:http';
import { logInfo, logWarn } from '../log/log.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Invalidation } from './invalidation.ts';

/**
 * The edge follows (deploy/nginx/masthead.conf, `location ~ ^/_edge_purge`): nginx's cache purge
 * module drops one cache key per request, so the server that decided an invalidation asks it to
 * drop each address that shows the posts, for each host of the tenant and each encoding the edge
 * keys on. A CDN purges by surrogate key instead (docs/deploy.md).
 */

/** The encodings the edge keys pages on (`$masthead_encoding`): brotli, gzip and none. */
const ENCODINGS = ['br', 'gzip', 'identity'];

/** Addresses that show posts: home, lists, feeds, sitemaps, and those of the posts named. */
export function purgedPaths(invalidation: Invalidation): string[] {
  const lists = [
    '/',
    '/page/2',
    '/page/3',
    '/categories',
    '/tags',
    '/rss.xml',
    '/sitemap.xml',
    '/sitemap-pages.xml',
    '/sitemap-posts-1.xml',
    '/news-sitemap.xml',
    '/search',
  ];
  return [
    ...lists,
    ...(invalidation.slugs ?? []).map((slug) => `/posts/${encodeURIComponent(slug)}`),
    ...(invalidation.categories ?? []).map((slug) => `/categories/${encodeURIComponent(slug)}`),
    ...(invalidation.topics ?? []).map((slug) => `/tags/${encodeURIComponent(slug)}`),
  ];
}

/** The `Host` visitors send: the tenant's exact hosts, with the edge's port unless it is 80/443. */
export function purgedHosts(tenant: Tenant, purgeUrl: URL): string[] {
  const port = purgeUrl.port ? `:${purgeUrl.port}` : '';
  return tenant.hosts.filter((host) => !host.includes('*')).map((host) => `${host}${port}`);
}

/** Sends the purges; never throws (an edge that is away keeps its copies until they expire). */
export async function purgeEdge(
  tenant: Tenant,
  invalidation: Invalidation,
  purgeUrl: string | undefined,
): Promise<number> {
  if (!purgeUrl) return 0;
  const base = new URL(purgeUrl);
  const requests = purgedHosts(tenant, base).flatMap((host) =>
    purgedPaths(invalidation).flatMap((path) =>
      ENCODINGS.map((encoding) => ({ host, path, encoding })),
    ),
  );
  let purged = 0;
  let failed = 0;
  await Promise.all(
    requests.map(async ({ host, path, encoding }) => {
      const status = await sendPurge(
        new URL(`${base.pathname.replace(/\/$/, '')}${path}`, base),
        host,
        encoding,
      );
      if (status === 200) purged += 1;
      else if (status !== 404) failed += 1;
    }),
  );
  if (failed > 0) logWarn('freshness.edge.failed', { tenant: tenant.id, failed });
  logInfo('freshness.edge.purged', { tenant: tenant.id, purged, asked: requests.length });
  return purged;
}

/** One PURGE with the visitor's `Host` (fetch may not set it): its status, 0 when the edge is away. */
function sendPurge(url: URL, host: string, encoding: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'PURGE', headers: { Host: host, 'Accept-Encoding': encoding }, timeout: 2000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
