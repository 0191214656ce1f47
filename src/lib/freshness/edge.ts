import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import PQueue from 'p-queue';
import { logInfo, logWarn } from '../log/log.ts';
import { settings } from '../settings/settings.ts';
import { hostMatches, normalizeHost } from '../tenants/resolution.ts';
import type { Tenant } from '../tenants/schema.ts';
import { edgeAddresses, edgeKey, type EdgeAddress } from './edge-addresses.ts';
import { changedTags, postsChanged } from '../delivery/cache-tags.ts';
import type { Invalidation } from './invalidation.ts';
import { categoryPath, postPath, tagPath } from '../reading/paths.ts';

/**
 * The edge follows (deploy/nginx/masthead.conf, `location ~ ^/_edge_purge`): nginx's cache purge
 * module drops one cache key per request, so the server that decided an invalidation asks it to
 * drop each address that shows the posts: the lists below for each host of the tenant and each
 * encoding the edge keys on, and every address the servers have answered whose page carries one of
 * the invalidation's tags (./edge-addresses.ts: post pages, path-prefixed and `?tenant=` addresses
 * included). A CDN purges by surrogate key instead (docs/deploy.md).
 */

/** The encodings the edge keys pages on (`$masthead_encoding`): brotli, gzip and none. */
const ENCODINGS = ['br', 'gzip', 'identity'];

/** Addresses that list the newest posts: home, indexes, feeds, sitemaps, search. */
const LIST_PATHS = [
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

/** Addresses that show posts: the lists, and those of the posts named. */
export function purgedPaths(invalidation: Invalidation): string[] {
  const lists = invalidation.everything || postsChanged(invalidation) ? LIST_PATHS : [];
  return [
    ...lists,
    ...[...(invalidation.slugs ?? []), ...(invalidation.comments ?? [])].map(postPath),
    ...(invalidation.categories ?? []).map(categoryPath),
    ...(invalidation.topics ?? []).map((slug) => tagPath({ name: slug, slug })),
  ];
}

/** The `Host` visitors send: the tenant's exact hosts, with the edge's port unless it is 80/443. */
export function purgedHosts(tenant: Tenant, purgeUrl: URL): string[] {
  const port = purgeUrl.port ? `:${purgeUrl.port}` : '';
  return tenant.hosts.filter((host) => !host.includes('*')).map((host) => `${host}${port}`);
}

/** PURGE requests in flight at once: a purge of everything may name thousands of addresses. */
const IN_FLIGHT = 32;

/** Sends the purges to `EDGE_PURGE_URL`; never throws (an edge away keeps its copies until they expire). */
export async function purgeEdge(tenant: Tenant, invalidation: Invalidation): Promise<number> {
  const { EDGE_PURGE_URL, REDIS_URL } = settings();
  if (!EDGE_PURGE_URL) return 0;
  const base = new URL(EDGE_PURGE_URL);
  const asked: Omit<EdgeAddress, 'tags'>[] = [];
  for (const host of purgedHosts(tenant, base)) {
    for (const path of purgedPaths(invalidation)) {
      for (const encoding of ENCODINGS) asked.push({ host, path, encoding });
    }
  }
  const tags = new Set(changedTags(invalidation));
  const tagged = (address: EdgeAddress) => address.tags.some((tag) => tags.has(tag));
  asked.push(...(await edgeAddresses(tenant.id, tagged, REDIS_URL)));
  return sendPurges(tenant.id, asked, base);
}

/**
 * Drops every page of `tenant` noted on a host `patterns` now name (a reload gave the host to
 * another tenant: its `/<id>/` and `?tenant=` pages, or its wildcard's), whichever server noted it.
 */
export async function purgeEdgeOnHosts(tenant: Tenant, patterns: readonly string[]) {
  const { EDGE_PURGE_URL, REDIS_URL } = settings();
  if (!EDGE_PURGE_URL) return 0;
  const claimed = ({ host }: EdgeAddress) =>
    patterns.some((pattern) => hostMatches(pattern, normalizeHost(host)));
  const asked = await edgeAddresses(tenant.id, claimed, REDIS_URL);
  return asked.length > 0 ? sendPurges(tenant.id, asked, new URL(EDGE_PURGE_URL)) : 0;
}

/** One PURGE per address (each once), `IN_FLIGHT` at a time; how many the edge dropped. */
async function sendPurges(
  tenant: string,
  addresses: readonly Omit<EdgeAddress, 'tags'>[],
  base: URL,
): Promise<number> {
  const asked = new Map(addresses.map((address) => [edgeKey(address), address]));
  const prefix = base.pathname.replace(/\/$/, '');
  const statuses = await new PQueue({ concurrency: IN_FLIGHT }).addAll(
    [...asked.values()].map(
      ({ host, path, encoding }) =>
        () =>
          sendPurge(new URL(`${prefix}${path}`, base), host, encoding),
    ),
  );
  const purged = statuses.filter((status) => status === 200).length;
  const failed = statuses.filter((status) => status !== 200 && status !== 404).length;
  if (failed > 0) logWarn('freshness.edge.failed', { tenant, failed });
  logInfo('freshness.edge.purged', { tenant, purged, asked: asked.size });
  return purged;
}

/** One PURGE with the visitor's `Host` (fetch may not set it): its status, 0 when the edge is away. */
function sendPurge(url: URL, host: string, encoding: string): Promise<number> {
  // `EDGE_PURGE_URL` may be https (an edge behind TLS): node:http refuses that protocol outright.
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
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
