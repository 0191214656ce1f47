import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKey, createReadCache, sharedStoreKey } from '../../src/lib/upstream/cache.ts';
import { createMetrics } from '../../src/lib/upstream/metrics.ts';
import { boundedRedisDriver, closeRedis } from '../../src/lib/upstream/redis.ts';
import { TTL } from '../../src/lib/upstream/ttl.ts';
import { createStorage } from 'unstorage';
import { startRedisServer, type RedisServer } from './redis-server.ts';

/** The shared store is bounded by design: a lifetime per kind and an entry cap per tenant. */

let redis: RedisServer;
let admin: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin.disconnect();
  await closeRedis();
  await redis.stop();
});

const context = { service: 'publishing' as const, tenant: 'daily-planet' };
const api = 'https://api.example.com/api/v1';
const posts = (params: Record<string, unknown>) =>
  cacheKey({ ...context, api, operation: 'posts.list', params });
const ttlOf = (key: string) => admin.ttl(`masthead:cache:${sharedStoreKey(key)}`);
const HOUR = 3600;

describe('the data cache in Redis', () => {
  it('keeps each kind as long as it fits: a search minutes, a list of posts days', async () => {
    const cache = createReadCache({
      metrics: createMetrics({ log: () => undefined }),
      redisUrl: redis.url,
    });
    const list = posts({ page: 1 });
    const search = posts({ search: 'ferry strike' });
    await cache.read(list, TTL.postList, () => Promise.resolve(['a']), context);
    await cache.read(search, TTL.search, () => Promise.resolve(['b']), context);
    const comments = cacheKey({
      ...context,
      api,
      operation: 'comments.list',
      params: { postSlug: 'a' },
    });
    await cache.read(comments, TTL.comments, () => Promise.resolve([]), context);
    expect(await ttlOf(search)).toBeLessThanOrEqual(15 * 60);
    expect(await ttlOf(search)).toBeGreaterThan(10 * 60);
    expect(await ttlOf(list)).toBeGreaterThan(47 * HOUR);
    expect(await ttlOf(list)).toBeLessThanOrEqual(48 * HOUR);
    expect(await ttlOf(comments)).toBeLessThan(2 * HOUR);
    // No key of the cache lives for ever.
    for (const key of await admin.keys('masthead:cache*'))
      expect(await admin.ttl(key)).toBeGreaterThan(0);
  });

  it('keeps at most the cap of one tenant, the oldest written going first, others untouched', async () => {
    const store = createStorage({ driver: boundedRedisDriver(redis.url, 'bounded', 5) });
    const other = sharedStoreKey(
      cacheKey({ ...context, api, tenant: 'harbour-times', operation: 'posts.list' }),
    );
    await store.setItemRaw(other, 'theirs', { ttl: 60 });
    const keys = Array.from({ length: 8 }, (_, n) => sharedStoreKey(posts({ search: `q${n}` })));
    for (const key of keys) await store.setItemRaw(key, 'x', { ttl: 60 });
    const kept = await Promise.all(keys.map((key) => store.hasItem(key)));
    expect(kept).toEqual([false, false, false, true, true, true, true, true]);
    expect(await store.getItemRaw(other)).toBe('theirs');
  });
});

describe('the index of what one tenant keeps in Redis', () => {
  it('forgets keys that expired, so a stream of searches does not grow it', async () => {
    const store = createStorage({ driver: boundedRedisDriver(redis.url, 'expiring', 100) });
    const group = sharedStoreKey(posts({ search: 'first' })).split(':')[0];
    for (let n = 0; n < 20; n += 1)
      await store.setItemRaw(sharedStoreKey(posts({ search: `gone${n}` })), 'x', { ttl: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await store.setItemRaw(sharedStoreKey(posts({ search: 'last' })), 'x', { ttl: 60 });
    expect(await admin.zcard(`expiring-index:${group}`)).toBe(1);
  });

  it('makes room by dropping what expires soonest: a list kept for days outlives searches', async () => {
    const store = createStorage({ driver: boundedRedisDriver(redis.url, 'soonest', 5) });
    const list = sharedStoreKey(posts({ page: 1 }));
    await store.setItemRaw(list, 'the front page', { ttl: 2 * 24 * HOUR });
    for (let n = 0; n < 10; n += 1)
      await store.setItemRaw(sharedStoreKey(posts({ search: `s${n}` })), 'x', { ttl: 15 * 60 });
    expect(await store.getItemRaw(list)).toBe('the front page');
  });

  it('lists and clears its own keys only, across several scan pages', async () => {
    const store = createStorage({ driver: boundedRedisDriver(redis.url, 'listed', 2000) });
    const other = createStorage({ driver: boundedRedisDriver(redis.url, 'untouched', 10) });
    await other.setItemRaw('g:kept', 'theirs', { ttl: 60 });
    const keys = Array.from({ length: 1200 }, (_, n) => `g:k${n}`);
    await Promise.all(keys.map((key) => store.setItemRaw(key, 'x', { ttl: 60 })));
    expect((await store.getKeys()).sort()).toEqual([...keys].sort());
    await store.clear();
    expect(await store.getKeys()).toEqual([]);
    expect(await other.getItemRaw('g:kept')).toBe('theirs');
  });
});
