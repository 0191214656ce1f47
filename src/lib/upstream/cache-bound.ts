import type { Driver } from 'unstorage';
import { getRedis, redisStorageDriver } from './redis.ts';

/**
 * The data cache in Redis, bounded per tenant: a key is `<group>:<hash>` (the group stands for one
 * tenant of one service), and each group's keys are indexed by when they expire in a sorted set
 * (`<base>-index:<group>`). Each write drops the members whose keys have expired (so the index
 * holds what Redis holds, not every search ever typed), and a write past `maxPerGroup` removes the
 * group's keys that would expire soonest (searches before posts). With each value's TTL by kind
 * (./ttl.ts, `keep`), that bounds what one tenant, or the strangers typing search queries on its
 * site, can put in Redis, whatever Redis' own `maxmemory` says.
 */
export const SHARED_ENTRIES_PER_TENANT = 5000;

/** The index lives as long as the longest `keep` (two days) after its last write. */
const INDEX_LIFETIME_MS = 2 * 24 * 60 * 60 * 1000;

// KEYS[1] index; ARGV: now ms, member, its expiry ms, max, key prefix, index lifetime ms.
const ADD_AND_TRIM = `
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
redis.call('zadd', KEYS[1], ARGV[3], ARGV[2])
local over = redis.call('zcard', KEYS[1]) - tonumber(ARGV[4])
if over > 0 then
  local soonest = redis.call('zrange', KEYS[1], 0, over - 1)
  redis.call('zremrangebyrank', KEYS[1], 0, over - 1)
  for _, member in ipairs(soonest) do redis.call('unlink', ARGV[5] .. member) end
end
redis.call('pexpire', KEYS[1], ARGV[6])
return over`;

export function boundedRedisDriver(
  url: string,
  base: string,
  maxPerGroup = SHARED_ENTRIES_PER_TENANT,
): Driver {
  const inner = redisStorageDriver(url, base);
  // Keys written in order with one lifetime leave in that order, also within one millisecond.
  const lastExpiry = new Map<number, number>();
  return {
    ...inner,
    name: 'masthead-redis-bounded',
    async setItem(key, value, options: { ttl?: number } = {}) {
      await inner.setItem?.(key, value, options);
      const group = key.slice(0, Math.max(0, key.indexOf(':')));
      const redis = await getRedis(url);
      const now = Date.now();
      const lifetimeMs = options.ttl === undefined ? INDEX_LIFETIME_MS : options.ttl * 1000;
      const expires = Math.max(now + lifetimeMs, (lastExpiry.get(lifetimeMs) ?? 0) + 0.001);
      lastExpiry.set(lifetimeMs, expires);
      await redis.eval(
        ADD_AND_TRIM,
        1,
        `${base}-index:${group}`,
        String(now),
        key,
        String(expires),
        String(maxPerGroup),
        `${base}:`,
        String(INDEX_LIFETIME_MS),
      );
    },
  };
}
