import { once } from 'node:events';
import type { Redis, RedisOptions } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Driver } from 'unstorage';
import { errorMessage } from '../content/records.ts';
import { logWarn } from '../log/log.ts';

/** Longest a Redis command may take before the caller treats Redis as away (local fallback). */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Longest the first use waits for the connection (once per process and URL, then never). */
const READY_WAIT_MS = 1000;

const CLIENT_OPTIONS: RedisOptions = {
  // Fail fast while Redis is away instead of queueing: the budget then answers from its in-memory
  // insurance limiter and the cache from the local LRU. A page never waits for Redis to return.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: 2000,
  // Keep reconnecting in the background, at most every 2 s.
  retryStrategy: (times) => Math.min(times * 100, 2000),
};

const clients = new Map<string, Promise<Redis>>();

/** Host and port only: a `REDIS_URL` may carry a password, which never reaches a log line. */
function redactedUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return '(unparsable REDIS_URL)';
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

/** Per URL, the users' fallbacks said in its current outage (`warnRedisAway`). */
const saidWhileAway = new Map<string, Set<string>>();

/**
 * What a user of Redis at `url` does while it is away (`effect`): one warning line per `event` and
 * outage, however many commands fail, said again once Redis was back (`ready`) and went away again.
 */
export function warnRedisAway(url: string, event: string, error: unknown, effect: string): void {
  const said = saidWhileAway.get(url) ?? new Set<string>();
  saidWhileAway.set(url, said);
  if (said.has(event)) return;
  said.add(event);
  logWarn(event, { message: errorMessage(error), effect });
}

/**
 * One line when the connection is lost (however many commands then fail or reconnects are
 * attempted) and one when it is back. Without a listener ioredis would print every failed
 * reconnect as an unhandled error event.
 */
function watch(client: Redis, url: string): void {
  let down = false;
  const lost = (message: string) => {
    if (down) return;
    down = true;
    logWarn('upstream.redis.unavailable', {
      redis: redactedUrl(url),
      message,
      fallback: 'local cache and per-instance budget until Redis is back',
    });
  };
  client.on('error', (error: Error) => lost(error.message));
  // An established connection dropped (ioredis only reconnects after a close it did not ask for).
  client.on('reconnecting', () => lost('connection lost, reconnecting'));
  client.on('ready', () => {
    saidWhileAway.get(url)?.clear();
    if (!down) return;
    down = false;
    logWarn('upstream.redis.restored', { redis: redactedUrl(url) });
  });
}

/**
 * One shared ioredis client per URL, created on first use so nothing connects when `REDIS_URL` is
 * unset. Resolves once connected (or at once if refused, at most `READY_WAIT_MS`): with the offline
 * queue off, commands sent before the connection is up would fail and fall back to per-instance
 * state for no reason, e.g. each instance's first budget takes counted only locally.
 */
export function getRedis(url: string): Promise<Redis> {
  let client = clients.get(url);
  if (!client) {
    client = import('ioredis').then(async ({ Redis: RedisClient }) => {
      const created = new RedisClient(url, CLIENT_OPTIONS);
      watch(created, url);
      // Refused (an `error` rejects `once`): no point waiting.
      const ready = { signal: AbortSignal.timeout(READY_WAIT_MS) };
      await once(created, 'ready', ready).catch(() => undefined);
      return created;
    });
    clients.set(url, client);
  }
  return client;
}

/**
 * Commands a guard cannot do without (idempotency keys): while Redis is away, `warnRedisAway` and
 * `refuse`'s error thrown: never a write without its guard.
 */
export function guardedRedis(
  url: string,
  event: string,
  effect: string,
  refuse: (cause: unknown) => Error,
) {
  return async <T>(use: (redis: Redis) => Promise<T>): Promise<T> => {
    try {
      return await use(await getRedis(url));
    } catch (error) {
      warnRedisAway(url, event, error, effect);
      throw refuse(error);
    }
  };
}

/** Closes every client (tests, graceful shutdown); never throws, even with Redis away. */
export async function closeRedis(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(
    all.map(async (pending) => {
      const client = await pending;
      // QUIT waits for pending replies; with Redis away (or QUIT failing) the socket just closes.
      const quit = client.status === 'ready' && (await client.quit().then(Boolean, () => false));
      if (!quit) client.disconnect();
    }),
  );
}

/**
 * A limiter shared through Redis when `redisUrl` is set (every server counts together), with an
 * in-memory insurance limiter while Redis is away; in memory otherwise.
 */
export function sharedLimiter(
  settings: ConstructorParameters<typeof RateLimiterMemory>[0],
  redisUrl: string | undefined,
): Promise<RateLimiterAbstract> {
  if (!redisUrl) return Promise.resolve(new RateLimiterMemory(settings));
  return getRedis(redisUrl).then(
    (storeClient) =>
      new RateLimiterRedis({
        ...settings,
        storeClient,
        // While Redis is away (not connected, or a command fails or times out), each instance
        // counts on its own in memory rather than refusing everyone or no one; for the upstream
        // budget N instances may then send up to N times our share, and its 429s cap the rest.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(settings),
      }),
  );
}

/**
 * The data cache in Redis, an unstorage driver over the shared client (one connection per instance
 * for budget and cache, one error handler, one close), bounded per tenant: a key is
 * `<group>:<hash>` (the group stands for one tenant of one service), and each group's keys are
 * indexed by when they expire in a sorted set (`<base>-index:<group>`). Each write drops the members
 * whose keys have expired (so the index holds what Redis holds, not every search ever typed), and a
 * write past `maxPerGroup` removes the group's keys that would expire soonest (searches before
 * posts). With each value's TTL by kind (./ttl.ts, `keep`), that bounds what one tenant, or the
 * strangers typing search queries on its site, can put in Redis, whatever Redis' own `maxmemory`
 * says. Values are stored as given (strings); keys under `base`.
 */
const SHARED_ENTRIES_PER_TENANT = 5000;

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
  const prefix = `${base}:`;
  const client = () => getRedis(url);
  // Keys written in order with one lifetime leave in that order, also within one millisecond.
  const lastExpiry = new Map<number, number>();
  const scanAll = async (): Promise<string[]> => {
    const keys: string[] = [];
    const stream = (await client()).scanStream({ match: `${prefix}*`, count: 500 });
    stream.on('data', (batch: string[]) => keys.push(...batch));
    await once(stream, 'end');
    return keys;
  };
  return {
    name: 'masthead-redis-bounded',
    async hasItem(key) {
      return (await (await client()).exists(prefix + key)) > 0;
    },
    async getItem(key) {
      return (await client()).get(prefix + key);
    },
    async setItem(key, value, options: { ttl?: number } = {}) {
      const redis = await client();
      if (options.ttl) await redis.set(prefix + key, value, 'EX', options.ttl);
      else await redis.set(prefix + key, value);
      const group = key.slice(0, Math.max(0, key.indexOf(':')));
      const now = Date.now();
      const lifetimeMs = options.ttl === undefined ? INDEX_LIFETIME_MS : options.ttl * 1000;
      const expires = Math.max(now + lifetimeMs, (lastExpiry.get(lifetimeMs) ?? 0) + 0.001);
      lastExpiry.set(lifetimeMs, expires);
      const index = `${base}-index:${group}`;
      const args = [now, key, expires, maxPerGroup, prefix, INDEX_LIFETIME_MS].map(String);
      await redis.eval(ADD_AND_TRIM, 1, index, ...args);
    },
    async removeItem(key) {
      await (await client()).unlink(prefix + key);
    },
    async getKeys() {
      return (await scanAll()).map((key) => key.slice(prefix.length));
    },
    async clear() {
      const keys = await scanAll();
      if (keys.length > 0) await (await client()).unlink(...keys);
    },
  };
}
