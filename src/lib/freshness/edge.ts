import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isDeepStrictEqual } from 'node:util';
import { LRUCache } from 'lru-cache';
import PQueue from 'p-queue';
import { z } from 'zod';
import type { StoredPage } from '../delivery/route-cache.ts';
import { logInfo, logWarn } from '../log/log.ts';
import { memo } from '../memo.ts';
import { forwardedHost } from '../request/public-origin.ts';
import { settings } from '../settings/settings.ts';
import { normalizeHost } from '../tenants/resolution.ts';
import type { Tenant } from '../tenants/schema.ts';
import { getRedis, warnRedisAway } from '../upstream/redis.ts';
import { changedTags, namedDrops, postsChanged, type Invalidation } from './invalidation.ts';

/**
 * The edge follows (deploy/nginx/masthead.conf, `location ~ ^/_edge_purge`): nginx's cache purge
 * module drops one cache key per request, so the server that decided an invalidation asks it to
 * drop each address that shows the posts: the lists below for each host of the tenant and each
 * encoding the edge keys on, and every address the servers have answered whose page carries one of
 * the invalidation's tags (the address book below: post pages included). Only hosts a tenant names
 * exactly are kept at the edge (../delivery/policy.ts `unshared`), so only they are noted. A CDN
 * purges by surrogate key instead (docs/deploy.md).
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
    ...namedDrops(invalidation).flatMap(({ path, slug }) => (path ? [path(slug)] : [])),
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

/**
 * The edge's address book. nginx's purge module drops one exact cache key per request, so a purge
 * of a tag or of everything must name every address the edge may hold: each cacheable page a server
 * has answered, as the edge keys it (the visitor's host, the request URI, the encoding),
 * with the page's tags. The newest 5,000 per tenant, kept two days (longer than any copy the edge
 * keeps), in this process and, when the servers share Redis, in a sorted set any server can read
 * (the one that decides a purge may not be the one that rendered the page).
 */
const EdgeAddressSchema = z.object({
  host: z.string(),
  /** Path and query as requested. */
  path: z.string(),
  /** `br`, `gzip` or `identity`: the edge keys each encoding apart. */
  encoding: z.string().catch('identity'),
  tags: z.array(z.coerce.string()).catch([]),
});
export type EdgeAddress = z.output<typeof EdgeAddressSchema>;

const PER_TENANT = 5000;
const KEEP_MS = 2 * 24 * 3600 * 1000;
/** A known address is written to Redis again after this long, so the age trim never drops a live one. */
const REFRESH_MS = 3600 * 1000;

interface Known {
  address: EdgeAddress;
  sharedAt: number;
}

/** Each tenant's known addresses (tenant ids come from tenants.json: the bound is a guard). */
const bookOf = memo(
  (_tenant: string) => new LRUCache<string, Known>({ max: PER_TENANT, ttl: KEEP_MS }),
  { max: 10_000 },
);

/** One cache key of the edge: host, path and encoding. */
export const edgeKey = (address: Omit<EdgeAddress, 'tags'>) =>
  `${address.host}\n${address.path}\n${address.encoding}`;
const redisKey = (tenant: string) => `masthead:edge:${tenant}`;

/**
 * The address the edge stored a page under: behind a trusted proxy, the host it forwarded, as the
 * edge keys it (`$host`: lower-cased, no port nor trailing dot), so spellings share one entry.
 */
export function edgeAddressOf(page: StoredPage, trustProxy?: boolean): EdgeAddress {
  const host = forwardedHost({ get: page.header }, trustProxy) ?? page.header('host');
  return {
    host: normalizeHost(host ?? page.url.host),
    path: `${page.url.pathname}${page.url.search}`,
    encoding: page.header('accept-encoding') || 'identity',
    tags: [...page.tags],
  };
}

/** Notes one address (never throws; Redis away means this process's book only). */
export function recordEdgeAddress(
  tenant: string,
  address: EdgeAddress,
  redisUrl: string | undefined,
): void {
  const book = bookOf(tenant);
  const key = edgeKey(address);
  const known = book.get(key);
  const now = Date.now();
  const share =
    redisUrl !== undefined &&
    (!known ||
      !isDeepStrictEqual(known.address.tags, address.tags) ||
      now - known.sharedAt > REFRESH_MS);
  book.set(key, { address, sharedAt: share ? now : (known?.sharedAt ?? now) });
  if (!share) return;
  getRedis(redisUrl)
    .then((redis) =>
      redis
        .multi()
        .zadd(redisKey(tenant), now, JSON.stringify(address))
        .zremrangebyscore(redisKey(tenant), '-inf', now - KEEP_MS)
        .zremrangebyrank(redisKey(tenant), 0, -PER_TENANT - 1)
        .exec(),
    )
    .catch((error: unknown) => {
      const effect = 'purges name the addresses this server saw, not every server';
      warnRedisAway(redisUrl, 'freshness.edge.record_failed', error, effect);
    });
}

function parse(member: string): EdgeAddress | undefined {
  try {
    return EdgeAddressSchema.safeParse(JSON.parse(member)).data;
  } catch {
    return undefined;
  }
}

/** Every address noted for `tenant` that is `wanted` (its page's tags, its host), each once. */
export async function edgeAddresses(
  tenant: string,
  wanted: (address: EdgeAddress) => boolean,
  redisUrl: string | undefined,
): Promise<EdgeAddress[]> {
  const found = new Map<string, EdgeAddress>();
  const add = (address: EdgeAddress) => {
    if (wanted(address)) found.set(edgeKey(address), address);
  };
  for (const { address } of bookOf(tenant).values()) add(address);
  if (redisUrl) {
    try {
      const redis = await getRedis(redisUrl);
      for (const member of await redis.zrange(redisKey(tenant), 0, -1)) {
        const address = parse(member);
        if (address) add(address);
      }
    } catch (error) {
      logWarn('freshness.edge.book_unreadable', { tenant, message: String(error) });
    }
  }
  return [...found.values()];
}
