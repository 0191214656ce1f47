import { logJsonLine } from '../log/log.ts';
import { settingDefaults } from '../settings/schema.ts';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Storage } from 'unstorage';
import { isOutage, NotFoundError, RateLimitedError, TimeoutError } from './errors.ts';
import type { UpstreamError, UpstreamService } from './errors.ts';
import { hashToken } from './identity.ts';
import { keepUnchanged } from './share.ts';
import { createCutoffs } from './cache-cutoffs.ts';
import type { InvalidationTarget } from './cache-cutoffs.ts';
import { decodeEntry, encodeEntry } from './cache-entry.ts';
import type { Entry } from './cache-entry.ts';
import type { Metrics } from './metrics.ts';
import type { CachePolicy } from './ttl.ts';
import { asSpare, currentVisitor, withoutDeadline } from './visitor.ts';

/**
 * Read cache for parsed, validated upstream values.
 *
 * - stale-while-revalidate: within `fresh` a hit; within `stale` the old value at once plus ONE
 *   background refresh;
 * - stale-if-error: up to `errorGrace` later, the last good value when the upstream is down, 5xx,
 *   429, answers garbage or our budget is empty;
 * - coalescing: concurrent identical misses share one upstream call;
 * - negative caching: an upstream 404 is remembered for `notFoundSeconds`, so the same unknown URL
 *   costs one call, not one per request;
 * - servable for good: a value past its whole window, or invalidated (`invalidate`: marked, never
 *   deleted), is kept (until the LRU needs the room) and served when it cannot be loaded again
 *   (the budget is spent, 429 ours or the upstream's; or an outage), counted as `staleBeyondWindow`
 *   and logged: an exhausted budget means "slightly old page", not "error" (not for resources
 *   whose policy has no `errorGrace`, such as availability);
 * - spare calls: loading again a value that a refusal would still serve (a stale refresh, an
 *   invalidated or past-window value) spends only the budget's spare share (`asSpare`), so while
 *   the budget is short its calls go to pages that have no copy at all;
 * - page deadline: a read made for a page never waits past the page's deadline (see `visitor.ts`),
 *   not even for another visitor's call it joined;
 * - bounded: an LRU capped by approximate bytes, with a store behind it (unstorage): Redis when
 *   `REDIS_URL` is set so instances share their cache, else files (bounded, ./disk-store.ts) so a
 *   restart is not a cold start. The store keeps each value for its kind's `keep` (./ttl.ts).
 *
 * With several instances: each keeps its own LRU and its own coalescing (concurrent misses on
 * two instances may both call the upstream once; the shared budget still bounds the total), and
 * all of them read and write the shared store. A value any instance stored is a hit on every
 * other; a local entry past `fresh` is first compared with the shared one, so an instance picks up
 * another's refresh instead of refreshing again. Entries expire in the store after their kind's
 * `keep`, at least `fresh + stale + errorGrace`. Redis away or slow (see `redis.ts`): reads and writes fail fast
 * and the cache works as a local one; a page never fails because of Redis.
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

export type { InvalidationTarget } from './cache-cutoffs.ts';

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
  /**
   * Values of these operations (or of one parameter's value) of a tenant stored before `at` are
   * marked stale, never deleted: loaded again on the next read, and served (`staleBeyondWindow`)
   * only when that fails (the change watcher and purges, src/lib/freshness/).
   * Every instance records it itself (the invalidation reaches each by Redis pub/sub).
   */
  invalidate(target: InvalidationTarget, at?: number): void;
  clear(): Promise<void>;
  /** Waits for background refreshes (tests, graceful shutdown). */
  settle(): Promise<void>;
  readonly size: number;
}

export interface CacheOptions {
  metrics: Metrics;
  /** Approximate byte cap of the local LRU (default 64 MiB). */
  maxSizeBytes?: number | undefined;
  /** Shared store; created from `redisUrl`, else from `diskDir`, when absent. */
  store?: Storage | undefined;
  redisUrl?: string | undefined;
  /** Without Redis: a folder the values are kept in across restarts (./disk-store.ts). */
  diskDir?: string | undefined;
  /** Most bytes kept in `diskDir` (default 256 MiB). */
  diskMaxBytes?: number | undefined;
  now?: () => number;
  /** How long an upstream 404 is remembered (default 60 s). */
  notFoundSeconds?: number | undefined;
  /** Where "stale beyond its window" lines go; the process's logger by default. */
  log?: ((line: string) => void) | undefined;
}

export const DEFAULT_CACHE_MAX_BYTES = settingDefaults.UPSTREAM_CACHE_MAX_BYTES;
export const DEFAULT_NOT_FOUND_SECONDS = settingDefaults.UPSTREAM_NOT_FOUND_SECONDS;
/** Redis keys are `masthead:cache:<this>`. */
export const SHARED_STORE_BASE = 'masthead:cache';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The key in the shared store: `<group>:<hash>`, the group a short hash of service and tenant (the
 * per-tenant bound, ./cache-bound.ts), then a hash of the cache key. unstorage treats `:`, `/` and
 * `?` specially, and the hashes keep tenant, params and identity (already a token hash) out of Redis.
 */
export function sharedStoreKey(key: string): string {
  const scope = key.slice(0, key.indexOf('|', key.indexOf('|') + 1));
  return `${sha256(scope).slice(0, 16)}:${sha256(key)}`;
}

async function createRedisStore(url: string): Promise<Storage> {
  const [{ createStorage }, { boundedRedisDriver }] = await Promise.all([
    import('unstorage'),
    import('./cache-bound.ts'),
  ]);
  return createStorage({ driver: boundedRedisDriver(url, SHARED_STORE_BASE) });
}

/** Approximate bytes for the LRU cap; never throws (`undefined` counts 1, a bigint value 1 KiB). */
function approxSize(value: unknown): number {
  try {
    return Math.max(1, (JSON.stringify(value) ?? '').length);
  } catch {
    return 1024;
  }
}

/** The store behind the LRU: the one given, else Redis, else files, else none. */
function openStore(options: CacheOptions): Promise<Storage | undefined> {
  if (options.store) return Promise.resolve(options.store);
  if (options.redisUrl) return createRedisStore(options.redisUrl).catch(() => undefined);
  const base = options.diskDir;
  if (!base) return Promise.resolve(undefined);
  return import('./disk-store.ts').then(({ createDiskStore }) =>
    createDiskStore({ base, maxBytes: options.diskMaxBytes }),
  );
}

/** Waits for `promise`, but not past the page's deadline: a TimeoutError then (stale may follow). */
function withinDeadline<T>(promise: Promise<T>, context: ReadContext): Promise<T> {
  const deadline = currentVisitor()?.deadline;
  if (deadline === undefined) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new TimeoutError(`[${context.service}] the page deadline passed while waiting`, {
            service: context.service,
            operation: 'cache.wait',
          }),
        ),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

export function createReadCache(options: CacheOptions): ReadCache {
  const { metrics } = options;
  const now = options.now ?? Date.now;
  const notFoundSeconds = options.notFoundSeconds ?? DEFAULT_NOT_FOUND_SECONDS;
  const log = options.log ?? ((line: string) => logJsonLine('warn', line));
  const maxSize = options.maxSizeBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const lru = new LRUCache<string, Entry>({
    maxSize,
    maxEntrySize: Math.max(1, Math.floor(maxSize / 4)),
    sizeCalculation: (entry) => approxSize(entry.value),
  });
  const inflight = new Map<string, Promise<unknown>>();
  const cutoffs = createCutoffs();
  /** Stored after the last invalidation of its operation. */
  const current = (key: string, entry: Entry): boolean => entry.storedAt >= cutoffs.of(key);
  const background = new Set<Promise<unknown>>();
  let storePromise: Promise<Storage | undefined> | undefined;
  const store = (): Promise<Storage | undefined> => (storePromise ??= openStore(options));

  const getShared = async (key: string): Promise<Entry | undefined> => {
    const shared = await store();
    if (!shared) return undefined;
    try {
      return decodeEntry(await shared.getItemRaw(sharedStoreKey(key)));
    } catch {
      return undefined; // Shared store unavailable: behave as a local miss.
    }
  };

  /** The local entry while fresh; otherwise the newer of the local and the shared one. */
  const getEntry = async (key: string): Promise<Entry | undefined> => {
    const local = lru.get(key);
    if (local && now() < local.freshUntil && current(key, local)) return local;
    const remote = await getShared(key);
    if (remote && (!local || remote.storedAt > local.storedAt)) {
      // Another instance's refresh: what it did not change keeps this instance's objects.
      const adopted = { ...remote, value: keepUnchanged(local?.value, remote.value) };
      lru.set(key, adopted);
      return adopted;
    }
    return local;
  };

  const putEntry = async (key: string, entry: Entry, ttlSeconds: number): Promise<void> => {
    lru.set(key, entry);
    const shared = await store();
    if (!shared) return;
    const raw = encodeEntry(entry);
    if (raw === undefined) return;
    // Awaited (bounded by the command timeout) so that once a read returns, every instance sees it.
    await shared
      .setItemRaw(sharedStoreKey(key), raw, { ttl: Math.max(1, Math.ceil(ttlSeconds)) })
      .catch(() => undefined);
  };

  /** `began`: when the load started, so a load that overlapped an invalidation counts as older. */
  const setEntry = (
    key: string,
    value: unknown,
    policy: CachePolicy,
    began = now(),
  ): Promise<void> => {
    const at = began;
    const window = policy.fresh + policy.stale + policy.errorGrace;
    const entry: Entry = {
      value,
      storedAt: at,
      freshUntil: at + policy.fresh * 1000,
      staleUntil: at + (policy.fresh + policy.stale) * 1000,
      keepUntil: at + window * 1000,
    };
    // The shared copy lives as long as its kind's `keep` (./ttl.ts), at least its window.
    return putEntry(key, entry, Math.max(window, policy.keep ?? 0));
  };

  const setMissing = (key: string, error: NotFoundError): Promise<void> => {
    const at = now();
    const until = at + notFoundSeconds * 1000;
    const missing = { operation: error.operation, message: error.message };
    const entry: Entry = {
      value: undefined,
      missing,
      storedAt: at,
      freshUntil: until,
      staleUntil: until,
      keepUntil: until,
    };
    return putEntry(key, entry, notFoundSeconds);
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
      const began = now();
      try {
        // What the re-read did not change stays the same object (see share.ts).
        const value = keepUnchanged(lru.peek(key)?.value, await load());
        await setEntry(key, value, policy, began);
        return value;
      } catch (error) {
        if (error instanceof NotFoundError && notFoundSeconds > 0) await setMissing(key, error);
        throw error;
      } finally {
        inflight.delete(key);
      }
    })();
    inflight.set(key, promise);
    return { promise, joined: false };
  };

  return {
    async read(key, policy, load, context, readOptions = {}) {
      const stored = readOptions.bypass ? undefined : await getEntry(key);
      // Out of date after an invalidation: only served if the upstream fails (below).
      const outdated = stored !== undefined && !current(key, stored);
      const found = outdated && stored.missing ? undefined : stored;
      const at = now();
      if (found?.missing && at < found.freshUntil) {
        metrics.count(context.service, context.tenant, 'notFoundHits');
        throw new NotFoundError(found.missing.message, {
          service: context.service,
          operation: found.missing.operation,
          status: 404,
        });
      }
      const entry = found?.missing ? undefined : found;
      type Value = Awaited<ReturnType<typeof load>>;
      if (entry && !outdated && at < entry.freshUntil) {
        metrics.count(context.service, context.tenant, 'cacheHits');
        return entry.value as Value;
      }
      if (entry && !outdated && at < entry.staleUntil) {
        metrics.count(context.service, context.tenant, 'staleServes');
        if (!inflight.has(key)) {
          // The refresh outlives this page: no page deadline, same visitor, spare budget only.
          const refresh = withoutDeadline(() =>
            asSpare(() => loadOnce(key, policy, load, context).promise),
          ).catch(() => undefined);
          background.add(refresh);
          void refresh.finally(() => background.delete(refresh));
        }
        return entry.value as Value;
      }
      // A copy that a refused call would still serve: loading it again is spare work (the
      // budget's `background` share), so the calls go first to pages that have no copy at all.
      const servable = entry !== undefined && (entry.keepUntil > at || policy.errorGrace > 0);
      const { promise, joined } = servable
        ? asSpare(() => loadOnce(key, policy, load, context))
        : loadOnce(key, policy, load, context);
      if (!joined) metrics.count(context.service, context.tenant, 'misses');
      try {
        return await withinDeadline(promise, context);
      } catch (error) {
        const kept = entry !== undefined && entry.keepUntil > now();
        if (!entry || !isOutage(error)) throw error;
        if (kept && !outdated) {
          metrics.count(context.service, context.tenant, 'staleServes');
          return entry.value as Value;
        }
        // Invalidated or past its window: still better than an error page while the budget is spent.
        if (kept || (policy.errorGrace > 0 && error instanceof RateLimitedError)) {
          metrics.count(context.service, context.tenant, 'staleBeyondWindow');
          log(
            JSON.stringify({
              level: 'warn',
              event: 'upstream_stale_beyond_window',
              time: new Date().toISOString(),
              service: context.service,
              tenant: context.tenant,
              operation: (error as UpstreamError).operation,
              storedAt: new Date(entry.storedAt).toISOString(),
            }),
          );
          return entry.value as Value;
        }
        throw error;
      }
    },
    invalidate(target, at = now()) {
      cutoffs.add(target, at);
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
