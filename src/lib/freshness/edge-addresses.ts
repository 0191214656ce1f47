import { isDeepStrictEqual } from 'node:util';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { memo } from '../memo.ts';
import type { StoredPage } from '../delivery/route-cache.ts';
import { logWarn } from '../log/log.ts';
import { forwardedHost } from '../request/public-origin.ts';
import { getRedis, warnRedisAway } from '../upstream/redis.ts';

/**
 * The edge's address book. nginx's purge module drops one exact cache key per request, so a purge
 * of a tag or of everything must name every address the edge may hold: each cacheable page a server
 * has answered, as the edge keys it (the `Host` the visitor sent, the request URI, the encoding),
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

/** The address the edge stored a page under: behind a trusted proxy, the host it forwarded. */
export function edgeAddressOf(page: StoredPage, trustProxy?: boolean): EdgeAddress {
  return {
    host: forwardedHost({ get: page.header }, trustProxy) ?? page.header('host') ?? page.url.host,
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
