import { isRecord } from '../content/records.ts';
import { logError } from '../log/log.ts';
import { memo } from '../memo.ts';
import { settingDefaults } from '../settings/schema.ts';
import { replaceEqualDeep } from '@tanstack/query-core';
import { createHash } from 'node:crypto';
import { parse, stringify } from 'devalue';
import { LRUCache } from 'lru-cache';
import { stringify as stableJson } from 'safe-stable-stringify';
import type { Storage } from 'unstorage';
import { z } from 'zod';
import {
  ForbiddenError,
  isOutage,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
  UpstreamError,
} from './errors.ts';
import type { UpstreamService } from './errors.ts';
import { lineWriter } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { boundedRedisDriver } from './redis.ts';
import type { CachePolicy } from './ttl.ts';
import { asSpare, currentVisitor, withoutDeadline } from './visitor.ts';

/**
 * Read cache for parsed, validated upstream values: lru-cache's `fetch` (concurrent loads of a key
 * share one upstream call) over entries that carry their own windows (./ttl.ts):
 * - within `fresh` a hit; within `stale` the old value at once plus ONE background refresh;
 * - up to `errorGrace` later, the last good value when the upstream is down, 5xx, 429, answers
 *   garbage or our budget is empty (a failed load keeps the old entry: `noDeleteOnFetchRejection`);
 * - an upstream 404 is remembered for `notFoundSeconds`;
 * - a per-token read the upstream refuses (401 revoked or expired, 403 no longer entitled) drops
 *   that token's entry, here and in the store (an instance that finds it gone there drops its own):
 *   it is never served again, not even in an outage;
 * - a value past its whole window, or invalidated (`invalidate` marks, never deletes), is kept until
 *   the LRU needs the room and served when it cannot be loaded again (budget spent, 429, outage),
 *   counted as `staleBeyondWindow` and logged (never for a policy without `errorGrace`);
 * - loading again a value a refusal would still serve spends only the budget's spare share
 *   (`asSpare`): while the budget is short its calls go to pages with no copy;
 * - a read made for a page never waits past the page's deadline (`visitor.ts`), joined calls too;
 * - bounded: an LRU capped by approximate bytes, with a store behind it (unstorage): Redis when
 *   `REDIS_URL` is set so instances share it, else files (./disk-store.ts) so a restart is not a
 *   cold start; each value kept there for its kind's `keep` (./ttl.ts).
 * Each instance has its own LRU and coalescing; a local entry past `fresh` is first compared with
 * the shared one, so an instance picks up another's refresh. Redis away or slow (`redis.ts`): a
 * local cache; a page never fails because of Redis.
 */

interface CacheKeyParts {
  service: UpstreamService;
  /** Publishing tenant id, or lodging account key. */
  tenant: string;
  /** The API's base address: a tenant moved to another API (a reload) never gets the old one's values. */
  api: string;
  operation: string;
  params?: Record<string, unknown> | undefined;
  /** The caller's token, if the read is made with one: the key then holds its hash, never the token. */
  token?: string | undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A stable, non-reversible stand-in for a token in cache and budget keys (never the token itself). */
export const hashToken = (token: string): string => sha256(token).slice(0, 32);

/** One API however its base address is written (host case, default port, trailing slash), hashed. */
export const apiHash = memo(
  (baseUrl: string): string => sha256(new URL(baseUrl).href.replace(/\/+$/, '')).slice(0, 16),
  // Asked for every cached read's key: a tenant's few base addresses, worked out once each.
  { max: 1_000 },
);

/**
 * `service|tenant|operation|identity|params`; identity is whose copy from which API:
 * `<API hash>:public` or `<API hash>:user:<token hash>`.
 */
export function cacheKey(parts: CacheKeyParts): string {
  const api = apiHash(parts.api);
  const who = parts.token === undefined ? 'public' : `user:${hashToken(parts.token)}`;
  const params = stableJson(parts.params ?? {});
  return [parts.service, parts.tenant, parts.operation, `${api}:${who}`, params].join('|');
}

/** A key read with a subscriber's token (`cacheKey`). */
const withToken = (key: string): boolean => key.split('|', 4)[3]?.includes(':user:') ?? false;

/** A 401 or 403 to a key read with a token: that token may no longer read it. */
const refusedToken = (key: string, error: unknown): boolean =>
  (error instanceof UnauthenticatedError || error instanceof ForbiddenError) && withToken(key);

/** What an invalidation names (src/lib/freshness/invalidation.ts builds it). */
export interface InvalidationTarget {
  service: UpstreamService;
  tenant: string;
  /** Operation names (`posts.list`); every operation of the tenant when both this and `entries` are absent. */
  operations?: readonly string[] | undefined;
  /** Only the values of an operation read with one parameter's value (`posts.get`, `slug`, `a-b`). */
  entries?: readonly { operation: string; param: string; value: string }[] | undefined;
}

/**
 * When the read cache's values went out of date: a value stored before its key's
 * cutoff is invalidated, kept to be served only when it cannot be loaded again. Keys are
 * `service|tenant|operation|identity|params` (`cacheKey`).
 */
function createCutoffs() {
  /** `service|tenant|operation` (or `service|tenant|*`) → values stored before this are out of date. */
  const byOperation = new Map<string, number>();
  /** The same for one parameter's value, `service|tenant|operation|param=<json>` (one a publish). */
  const byValue = new LRUCache<string, number>({ max: 50_000 });
  /** `service|tenant|operation` → the parameters `byValue` has values for. */
  const params = new Map<string, Set<string>>();

  const paramsOf = (text: string): Record<string, unknown> => {
    try {
      const parsed: unknown = JSON.parse(text || '{}');
      return isRecord(parsed) ? parsed : {};
    } catch {
      return {};
    }
  };

  return {
    /** Read on every cached read: nothing to look up until something was invalidated. */
    of(key: string): number {
      if (byOperation.size === 0 && params.size === 0) return 0;
      const afterTenant = key.indexOf('|', key.indexOf('|') + 1);
      const afterOperation = key.indexOf('|', afterTenant + 1);
      const scope = key.slice(0, afterTenant);
      const operation = afterOperation < 0 ? key : key.slice(0, afterOperation);
      let cutoff = Math.max(byOperation.get(operation) ?? 0, byOperation.get(`${scope}|*`) ?? 0);
      const names = params.get(operation);
      if (names) {
        // Parsed only for an operation with a value invalidated.
        const values = paramsOf(key.slice(key.indexOf('|', afterOperation + 1) + 1));
        for (const name of names) {
          const at = byValue.get(`${operation}|${name}=${JSON.stringify(values[name])}`);
          if (at !== undefined) cutoff = Math.max(cutoff, at);
        }
      }
      return cutoff;
    },
    add(target: InvalidationTarget, at: number): void {
      const scope = `${target.service}|${target.tenant}`;
      const everything = target.operations === undefined && target.entries === undefined;
      for (const operation of everything ? ['*'] : (target.operations ?? [])) {
        const name = `${scope}|${operation}`;
        byOperation.set(name, Math.max(byOperation.get(name) ?? 0, at));
      }
      for (const { operation, param, value } of target.entries ?? []) {
        const name = `${scope}|${operation}`;
        params.set(name, (params.get(name) ?? new Set<string>()).add(param));
        const key = `${name}|${param}=${JSON.stringify(value)}`;
        byValue.set(key, Math.max(byValue.get(key) ?? 0, at));
      }
    },
  };
}

type ReadContext = Pick<CacheKeyParts, 'service' | 'tenant'>;

export interface ReadOptions {
  /** Skip the cache read (the fresh value is still stored). */
  fresh?: boolean | undefined;
}

export type ReadCache = ReturnType<typeof createReadCache>;

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
  now?: (() => number) | undefined;
  /** How long an upstream 404 is remembered (default 60 s). */
  notFoundSeconds?: number | undefined;
  /** Where "stale beyond its window" lines go; the process's logger by default. */
  log?: ((line: string) => void) | undefined;
}

/**
 * The key in the shared store: `<group>:<hash>`, the group a short hash of service and tenant (the
 * per-tenant bound, `boundedRedisDriver`), then a hash of the cache key. unstorage treats `:`, `/` and
 * `?` specially, and the hashes keep tenant, params and identity (already a token hash) out of Redis.
 */
export function sharedStoreKey(key: string): string {
  const scope = key.slice(0, key.indexOf('|', key.indexOf('|') + 1));
  return `${sha256(scope).slice(0, 16)}:${sha256(key)}`;
}

/** One cached value with its windows (epoch ms); `missing` when it remembers a 404 instead. */
const entrySchema = z.object({
  value: z.unknown(),
  missing: z.object({ operation: z.string(), message: z.string() }).optional(),
  storedAt: z.number(),
  freshUntil: z.number(),
  staleUntil: z.number(),
  keepUntil: z.number(),
});
type Entry = z.infer<typeof entrySchema>;

/**
 * The stored text: devalue keeps what JSON loses (`Date`, `undefined`, bigint, non-finite numbers,
 * Map, Set); a value it cannot write (class instances, `__proto__` keys) stays in the local LRU.
 */
function encodeEntry(entry: Entry): string | undefined {
  try {
    return stringify(entry);
  } catch {
    return undefined;
  }
}

/** Anything else (another format, not ours): a miss. */
export function decodeEntry(raw: unknown): Entry | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    return entrySchema.parse(parse(raw));
  } catch {
    return undefined;
  }
}

/** The store behind the LRU: the one given, else Redis, else files, else none. */
async function openStore({ store, redisUrl, diskDir, diskMaxBytes }: CacheOptions) {
  if (store) return store;
  if (redisUrl) {
    const { createStorage } = await import('unstorage');
    return createStorage({ driver: boundedRedisDriver(redisUrl, 'masthead:cache') });
  }
  if (!diskDir) return undefined;
  const { createDiskStore } = await import('./disk-store.ts');
  return createDiskStore({ base: diskDir, maxBytes: diskMaxBytes });
}

/** Waits for `promise`, but not past the page's deadline: a TimeoutError then (stale may follow). */
function withinDeadline<T>(promise: Promise<T>, context: ReadContext): Promise<T> {
  const deadline = currentVisitor()?.deadline;
  if (deadline === undefined) return promise;
  const { promise: expired, reject } = Promise.withResolvers<never>();
  const error = new TimeoutError(`[${context.service}] the page deadline passed while waiting`, {
    service: context.service,
    operation: 'cache.wait',
  });
  const timer = setTimeout(() => reject(error), Math.max(0, deadline - Date.now()));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Approximate bytes for the LRU cap; never throws (`undefined` counts 1, a bigint value 1 KiB). */
function approxSize(entry: Entry): number {
  try {
    return Math.max(1, (JSON.stringify(entry.value) ?? '').length);
  } catch {
    return 1024;
  }
}

/** The value an entry holds, as the caller's type (what was stored under its key). */
const valueOf = <T>(entry: Entry | undefined): T => entry?.value as T;

/** What one load needs: handed to lru-cache's `fetchMethod` as its `context`. */
interface Load {
  policy: CachePolicy;
  load: () => Promise<unknown>;
}

/** A value's windows from `at`, when its load began (so one that overlapped an invalidation is older). */
function entryFor(value: unknown, { fresh, stale, errorGrace }: CachePolicy, at: number): Entry {
  const freshUntil = at + fresh * 1000;
  const staleUntil = freshUntil + stale * 1000;
  return { value, storedAt: at, freshUntil, staleUntil, keepUntil: staleUntil + errorGrace * 1000 };
}

/** A remembered 404, thrown again for `seconds`. */
function missingFor(error: NotFoundError, at: number, seconds: number): Entry {
  const until = at + seconds * 1000;
  const missing = { operation: error.operation, message: error.message };
  const windows = { storedAt: at, freshUntil: until, staleUntil: until, keepUntil: until };
  return { value: undefined, missing, ...windows };
}

type Counted = Parameters<Metrics['count']>[2];

/** What a read does with what it found: answer from it (counted so), or load (`load`). */
function phaseOf(stored: Entry | undefined, outdated: boolean, at: number): Counted | 'load' {
  if (!stored || outdated) return 'load';
  if (at < stored.freshUntil) return stored.missing ? 'notFoundHits' : 'cacheHits';
  return !stored.missing && at < stored.staleUntil ? 'staleServes' : 'load';
}

/** The value, or the remembered 404 thrown again. */
function served<T>(entry: Entry | undefined, context: ReadContext): T {
  if (!entry?.missing) return valueOf<T>(entry);
  const { message, operation } = entry.missing;
  throw new NotFoundError(message, { service: context.service, operation, status: 404 });
}

/** What a failed load answers with instead of its error: the old value, counted so; none: the error. */
function fallbackOf(
  error: unknown,
  entry: Entry,
  outdated: boolean,
  policy: CachePolicy,
  at: number,
): 'staleServes' | 'staleBeyondWindow' | undefined {
  if (!isOutage(error)) return undefined;
  const kept = entry.keepUntil > at;
  if (kept && !outdated) return 'staleServes';
  // Invalidated or past its window: still better than an error page while the budget is spent.
  const refused = policy.errorGrace > 0 && error instanceof RateLimitedError;
  return kept || refused ? 'staleBeyondWindow' : undefined;
}

/**
 * The LRU with the shared store behind it (Redis, files or none: a failure there is a miss, or
 * nothing stored): lru-cache's `fetch` runs one load per key at a time, and `entry` reads the local
 * copy, or the shared one when it is newer.
 */
function tiers(
  options: CacheOptions,
  now: () => number,
  current: (key: string, entry: Entry) => boolean,
) {
  const maxSize = options.maxSizeBytes ?? settingDefaults.UPSTREAM_CACHE_MAX_BYTES;
  const notFoundSeconds = options.notFoundSeconds ?? settingDefaults.UPSTREAM_NOT_FOUND_SECONDS;
  let opened: Promise<Storage | undefined> | undefined;
  const store = () => (opened ??= openStore(options).catch(() => undefined));
  /** Awaited (bounded by Redis' command timeout): once a read returns, every instance sees it. */
  const share = async (key: string, entry: Entry, ttlSeconds: number): Promise<Entry> => {
    const [shared, raw] = [await store(), encodeEntry(entry)];
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    if (shared && raw !== undefined)
      await shared.setItemRaw(sharedStoreKey(key), raw, { ttl }).catch(() => undefined);
    return entry;
  };
  const lru = new LRUCache<string, Entry, Load>({
    maxSize,
    maxEntrySize: Math.max(1, Math.floor(maxSize / 4)),
    sizeCalculation: approxSize,
    // One load: the value (or a 404, remembered) stored and shared.
    fetchMethod: async (key, previous, { context: { policy, load } }) => {
      const at = now();
      try {
        // Structural sharing: what a re-read did not change keeps the objects renders saw before,
        // so page parts kept by the identity of their data (src/lib/render/fragments.ts) stay valid.
        const entry = entryFor(replaceEqualDeep(previous?.value, await load()), policy, at);
        // The shared copy lives as long as its kind's `keep` (./ttl.ts), at least its window.
        const window = policy.fresh + policy.stale + policy.errorGrace;
        return await share(key, entry, Math.max(window, policy.keep ?? 0));
      } catch (error) {
        if (!(error instanceof NotFoundError) || notFoundSeconds <= 0) throw error;
        return share(key, missingFor(error, at, notFoundSeconds), notFoundSeconds);
      }
    },
    // A failed load keeps the old entry (served on errors); `set`/`delete` while loading do not
    // cancel the load its callers wait for.
    noDeleteOnFetchRejection: true,
    ignoreFetchAbort: true,
  });
  return {
    lru,
    /** Loads `key` once at a time: a caller that finds a load running joins it (`coalesced`). */
    loadOnce: (key: string, load: Load) => {
      const status: LRUCache.Status<string, Entry, Load> = {};
      const promise = lru
        .fetch(key, { forceRefresh: true, context: load, status })
        .catch(async (error: unknown) => {
          // After lru-cache put the old entry back (`noDeleteOnFetchRejection`).
          if (refusedToken(key, error)) {
            lru.delete(key);
            await (await store())?.removeItem(sharedStoreKey(key)).catch(() => undefined);
          }
          throw error;
        });
      return { promise, joined: status.fetch === 'inflight' };
    },
    /** The local entry while fresh; otherwise the newer of the local and the shared one. */
    entry: async (key: string): Promise<Entry | undefined> => {
      const local = lru.get(key);
      if (local && now() < local.freshUntil && current(key, local)) return local;
      const shared = await store();
      const raw: unknown = await shared?.getItemRaw(sharedStoreKey(key)).catch(() => undefined);
      // Gone from the store (null; `undefined` when it could not be read) while kept here: another
      // instance dropped a token's copy the upstream refused (`loadOnce`), so this one drops its own.
      if (raw === null && local && withToken(key)) {
        lru.delete(key);
        return undefined;
      }
      const remote = decodeEntry(raw);
      if (!remote || (local && remote.storedAt <= local.storedAt)) return local;
      // Another instance's refresh: what it did not change keeps this instance's objects.
      const adopted = { ...remote, value: replaceEqualDeep(local?.value, remote.value) };
      lru.set(key, adopted);
      return adopted;
    },
  };
}

export function createReadCache(options: CacheOptions) {
  const { metrics } = options;
  const now = options.now ?? (() => Date.now()); // a faked clock (tests) is followed
  const write = lineWriter(options.log);
  const cutoffs = createCutoffs();
  /** Stored after the last invalidation of its operation. */
  const current = (key: string, entry: Entry) => entry.storedAt >= cutoffs.of(key);
  const { lru, loadOnce, entry: getEntry } = tiers(options, now, current);
  const background = new Set<Promise<unknown>>();
  const refreshLater = (refresh: () => Promise<unknown>, context: ReadContext) => {
    const settled = withoutDeadline(() => asSpare(refresh))
      // The client logged an upstream failure; anything else is a bug nobody else will see.
      .catch((error: unknown) => {
        if (!(error instanceof UpstreamError))
          logError('upstream.refresh.failed', { ...context }, error);
      })
      .finally(() => background.delete(settled));
    background.add(settled);
  };

  return {
    async read<T>(
      key: string,
      policy: CachePolicy,
      load: () => Promise<T>,
      context: ReadContext,
      readOptions: ReadOptions = {},
    ): Promise<T> {
      const count = (what: Counted) => metrics.count(context.service, context.tenant, what);
      const stored = readOptions.fresh ? undefined : await getEntry(key);
      // Out of date after an invalidation: only served if the upstream fails (below).
      const outdated = stored !== undefined && !current(key, stored);
      const at = now();
      const found = phaseOf(stored, outdated, at);
      if (found !== 'load') {
        count(found);
        // The refresh outlives this page: no page deadline, same visitor, spare budget only.
        if (found === 'staleServes')
          refreshLater(() => loadOnce(key, { policy, load }).promise, context);
        return served<T>(stored, context);
      }
      const entry = stored?.missing ? undefined : stored;
      // A copy that a refused call would still serve: loading it again is spare work (the
      // budget's `background` share), so the calls go first to pages that have no copy at all.
      const servable = entry !== undefined && (entry.keepUntil > at || policy.errorGrace > 0);
      const { promise, joined } = servable
        ? asSpare(() => loadOnce(key, { policy, load }))
        : loadOnce(key, { policy, load });
      count(joined ? 'coalesced' : 'misses');
      try {
        return served<T>(await withinDeadline(promise, context), context);
      } catch (error) {
        const fallback = entry && fallbackOf(error, entry, outdated, policy, now());
        if (!entry || !fallback) throw error;
        count(fallback);
        if (fallback === 'staleBeyondWindow') {
          const operation = error instanceof UpstreamError ? error.operation : undefined;
          const storedAt = new Date(entry.storedAt).toISOString();
          write('warn', 'upstream_stale_beyond_window', { ...context, operation, storedAt });
        }
        return valueOf<T>(entry);
      }
    },
    /**
     * Values of these operations (or of one parameter's value) of a tenant stored before `at` are
     * marked stale, never deleted: loaded again on the next read, and served (`staleBeyondWindow`)
     * only when that fails (the change watcher and purges, src/lib/freshness/). Every instance
     * records it itself (the invalidation reaches each by Redis pub/sub).
     */
    invalidate(target: InvalidationTarget, at = now()) {
      cutoffs.add(target, at);
    },
    /** Waits for background refreshes (tests, graceful shutdown). */
    async settle() {
      while (background.size > 0) await Promise.all([...background]);
    },
    get size() {
      return lru.size;
    },
  };
}
