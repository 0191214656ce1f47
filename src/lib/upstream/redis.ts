import type { Redis } from 'ioredis';

const clients = new Map<string, Promise<Redis>>();

/**
 * One shared ioredis client per URL, created on first use so nothing connects when `REDIS_URL` is
 * unset. `enableOfflineQueue: false` makes commands fail fast while Redis is away (the budget then
 * falls back to its in-memory insurance limiter, the cache to its local LRU).
 */
export function getRedis(url: string): Promise<Redis> {
  let client = clients.get(url);
  if (!client) {
    client = import('ioredis').then(
      ({ Redis: RedisClient }) =>
        new RedisClient(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
    );
    clients.set(url, client);
  }
  return client;
}

/** Closes every client (tests, graceful shutdown). */
export async function closeRedis(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map(async (client) => (await client).quit()));
}
