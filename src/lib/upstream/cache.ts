import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Storage } from 'unstorage';
import { isOutage } from './errors.ts';
import type { UpstreamService } from './errors.ts';
import { hashToken } from './identity.ts';
import type { Metrics } from './metrics.ts';
import type { CachePolicy } from './ttl.ts';

/**
 * Read cache for parsed, validated upstream values.
 *
 * - stale-while-revalidate: within `fresh` a hit; within `stale` the old value at once plus ONE
 *   background refresh;
 * - stale-if-error: up to `errorGrace` later, the last good value when the upstream is down, 5xx,
 *   429, answers garbage or our budget is empty;
 * - coalescing: concurrent identical misses share one upstream call;
 * - bounded: an LRU capped by approximate bytes, with a shared Redis store behind it (unstorage)
 *   when `REDIS_URL` is set so instances share their cache.
 */

export interface CacheKeyParts {
  service: UpstreamService;
  /** Publishing tenant id, or lodging account key. */
  tenant: string;
  operation: string;
  params?: Record<string, unknown> | undefined;
  /** The caller's token, if the read is made with one: the key then holds its hash, never the token. */
  token?: string | undefined;
}

function stableStringify(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify(record[k])}`)
    .join(',')}}`;
}

/** `service|tenant|operation|identity|params`; identity is `public` or `user:<token hash>`. */
export function cacheKey(parts: CacheKeyParts): string {
  const identity = parts.token === undefined ? 'public' : `user:${hashToken(parts.token)}`;
  return [
    parts.service,
    parts.tenant,
    parts.operation,
    identity,
    stableStringify(parts.params ?? {}),
  ].join('|');
}

interface Entry {
  value: unknown;
  storedAt: number;
  freshUntil: number;
  staleUntil: number;
  keepUntil: number;
}

export interface ReadContext {
  service: UpstreamService;
  tenant: string;
}

export interface ReadOptions {
  /** Skip the cache read (the fresh value is still stored). */
  bypass?: boolean | undefined;
}

export interface ReadCache {
  read<T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<T>,
    context: ReadContext,
    options?: ReadOptions,
  ): Promise<T>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
  /** Waits for background refreshes (tests, graceful shutdown). */
  settle(): Promise<void>;
  readonly size: number;
}

export interface CacheOptions {
  metrics: Metrics;
  /** Approximate byte cap of the local LRU (default 64 MiB). */
  maxSizeBytes?: number | undefined;
  /** Shared store; created from `redisUrl` when absent. */
  store?: Storage | undefined;
  redisUrl?: string | undefined;
  now?: () => number;
}

export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

function sharedStoreKey(key: string): string {
  // unstorage treats `:`, `/` and `?` specially; a hash is a safe, short key.
  return createHash('sha256').update(key).digest('hex');
}

async function createRedisStore(url: string): Promise<Storage> {
  const [{ createStorage }, { default: redisDriver }] = await Promise.all([
    import('unstorage'),
    import('unstorage/drivers/redis'),
  ]);
  return createStorage({ driver: redisDriver({ url, base: 'masthead:cache' }) });
}

function isEntry(value: unknown): value is Entry {
  return (
    typeof value === 'object' &&
    value !== null &&
    'value' in value &&
    typeof (value as Entry).freshUntil === 'number' &&
    typeof (value as Entry).keepUntil === 'number'
  );
}

export function createReadCache(options: CacheOptions): ReadCache {
  const { metrics } = options;
  const now = options.now ?? Date.now;
  const maxSize = options.maxSizeBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const lru = new LRUCache<string, Entry>({
    maxSize,
    maxEntrySize: Math.max(1, Math.floor(maxSize / 4)),
    sizeCalculation: (entry) => Math.max(1, JSON.stringify(entry.value).length),
  });
  const inflight = new Map<string, Promise<unknown>>();
  const background = new Set<Promise<unknown>>();
  let storePromise: Promise<Storage | undefined> | undefined;

  const store = (): Promise<Storage | undefined> => {
    storePromise ??= options.store
      ? Promise.resolve(options.store)
      : options.redisUrl
        ? createRedisStore(options.redisUrl).catch(() => undefined)
        : Promise.resolve(undefined);
    return storePromise;
  };

  const getEntry = async (key: string): Promise<Entry | undefined> => {
    const local = lru.get(key);
    if (local) return local;
    const shared = await store();
    if (!shared) return undefined;
    try {
      const remote = await shared.getItem(sharedStoreKey(key));
      if (isEntry(remote) && remote.keepUntil > now()) {
        lru.set(key, remote);
        return remote;
      }
    } catch {
      // Shared store unavailable: behave as a local miss.
    }
    return undefined;
  };

  const setEntry = async (key: string, value: unknown, policy: CachePolicy): Promise<void> => {
    const at = now();
    const entry: Entry = {
      value,
      storedAt: at,
      freshUntil: at + policy.fresh * 1000,
      staleUntil: at + (policy.fresh + policy.stale) * 1000,
      keepUntil: at + (policy.fresh + policy.stale + policy.errorGrace) * 1000,
    };
    lru.set(key, entry);
    const shared = await store();
    if (!shared) return;
    const ttl = Math.max(1, policy.fresh + policy.stale + policy.errorGrace);
    await shared.setItem(sharedStoreKey(key), entry, { ttl }).catch(() => undefined);
  };

  /** Runs `load` once per key at a time; later callers join the running call. */
  const loadOnce = <T>(
    key: string,
    policy: CachePolicy,
    load: () => Promise<T>,
    context: ReadContext,
  ): { promise: Promise<T>; joined: boolean } => {
    const running = inflight.get(key);
    if (running) {
      metrics.count(context.service, context.tenant, 'coalesced');
      return { promise: running as Promise<T>, joined: true };
    }
    const promise = (async () => {
      try {
        const value = await load();
        await setEntry(key, value, policy);
        return value;
      } finally {
        inflight.delete(key);
      }
    })();
    inflight.set(key, promise);
    return { promise, joined: false };
  };

  return {
    async read(key, policy, load, context, readOptions = {}) {
      const entry = readOptions.bypass ? undefined : await getEntry(key);
      const at = now();
      if (entry && entry.keepUntil <= at) {
        lru.delete(key);
      } else if (entry && at < entry.freshUntil) {
        metrics.count(context.service, context.tenant, 'cacheHits');
        return entry.value as Awaited<ReturnType<typeof load>>;
      } else if (entry && at < entry.staleUntil) {
        metrics.count(context.service, context.tenant, 'staleServes');
        if (!inflight.has(key)) {
          const refresh = loadOnce(key, policy, load, context).promise.catch(() => undefined);
          background.add(refresh);
          void refresh.finally(() => background.delete(refresh));
        }
        return entry.value as Awaited<ReturnType<typeof load>>;
      }
      const { promise, joined } = loadOnce(key, policy, load, context);
      if (!joined) metrics.count(context.service, context.tenant, 'misses');
      try {
        return await promise;
      } catch (error) {
        if (entry && entry.keepUntil > now() && isOutage(error)) {
          metrics.count(context.service, context.tenant, 'staleServes');
          return entry.value as Awaited<ReturnType<typeof load>>;
        }
        throw error;
      }
    },
    async delete(key) {
      lru.delete(key);
      const shared = await store();
      await shared?.removeItem(sharedStoreKey(key)).catch(() => undefined);
    },
    async clear() {
      lru.clear();
      const shared = await store();
      await shared?.clear().catch(() => undefined);
    },
    async settle() {
      while (background.size > 0) await Promise.all([...background]);
    },
    get size() {
      return lru.size;
    },
  };
}
