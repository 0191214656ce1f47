import type { Driver } from 'unstorage';
import { getRedis, redisStorageDriver } from './redis.ts';

/**
 * The data cache in Redis, bounded per tenant: a key is `<group>:<hash>` (the group stands for one
 * tenant of one service), and each group's keys are indexed by write time in a sorted set
 * (`<base>-index:<group>`); a write past `maxPerGroup` removes the group's oldest. With each
 * value's TTL by kind (./ttl.ts, `keep`), that bounds what one tenant, or the strangers typing
 * search queries on its site, can put in Redis, whatever Redis' own `maxmemory` says.
 */
export const SHARED_ENTRIES_PER_TENANT = 5000;

/** Index members older than the longest `keep` (two days) are dead keys: dropped on each write. */
const INDEX_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

// KEYS[1] index; ARGV: now ms, member, max, key prefix, window ms.
const ADD_AND_TRIM = `
redis.call('zadd', KEYS[1], ARGV[1], ARGV[2])
redis.call('zremrangebyscore', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[5]))
local over = redis.call('zcard', KEYS[1]) - tonumber(ARGV[3])
if over > 0 then
  local oldest = redis.call('zrange', KEYS[1], 0, over - 1)
  redis.call('zremrangebyrank', KEYS[1], 0, over - 1)
  for _, member in ipairs(oldest) do redis.call('unlink', ARGV[4] .. member) end
end
redis.call('pexpire', KEYS[1], ARGV[5])
return over`;

export function boundedRedisDriver(
  url: string,
  base: string,
  maxPerGroup = SHARED_ENTRIES_PER_TENANT,
): Driver {
  const inner = redisStorageDriver(url, base);
  // Write order, also within one millisecond.
  let last = 0;
  return {
    ...inner,
    name: 'masthead-redis-bounded',
    async setItem(key, value, options: { ttl?: number } = {}) {
      await inner.setItem?.(key, value, options);
      const group = key.slice(0, Math.max(0, key.indexOf(':')));
      const redis = await getRedis(url);
      await redis.eval(
        ADD_AND_TRIM,
        1,
        `${base}-index:${group}`,
        String((last = Math.max(Date.now(), last + 0.001))),
        key,
        String(maxPerGroup),
        `${base}:`,
        String(INDEX_WINDOW_MS),
      );
    },
  };
}
