import { LRUCache } from 'lru-cache';
import { createStorage, defineDriver } from 'unstorage';
import type { Storage } from 'unstorage';
import fsLiteDriver from 'unstorage/drivers/fs-lite';

/**
 * The data cache's store without Redis: files under a folder (unstorage's fs-lite driver), so a
 * restart is not a cold start. Each file starts with the epoch ms it expires at (the store's TTL,
 * as Redis keeps it); an expired file is a miss and is removed. Bounded by entries and bytes: the
 * files written longest ago go first (at start from their modification times, then in write order).
 * Several processes may share the folder; each keeps the bound for what it sees.
 */
interface DiskStoreOptions {
  /** The folder (created when needed). */
  base: string;
  /** Most files kept (default 20,000). */
  maxEntries?: number | undefined;
  /** Most bytes kept (default 256 MiB). */
  maxBytes?: number | undefined;
  now?: () => number;
}

export function createDiskStore(options: DiskStoreOptions): Storage {
  const files = fsLiteDriver({ base: options.base });
  const now = options.now ?? Date.now;
  const evicted: string[] = [];
  // Key → bytes, never read, so lru-cache drops the files written longest ago past either bound.
  const sizes = new LRUCache<string, number>({
    max: options.maxEntries ?? 20_000,
    maxSize: options.maxBytes ?? 256 * 1024 * 1024,
    sizeCalculation: (size) => Math.max(1, size),
    dispose: (_size, key, reason) => reason === 'evict' && evicted.push(key),
  });
  const remove = async (key: string) => {
    sizes.delete(key);
    await files.removeItem?.(key, {});
  };
  // What an earlier run left, oldest first.
  const known = (async () => {
    const keys = await files.getKeys('', {});
    const metas = await Promise.all(
      keys.map(async (key) => ({ key, meta: await files.getMeta?.(key, {}) })),
    );
    metas.sort((a, b) => Number(a.meta?.mtime ?? 0) - Number(b.meta?.mtime ?? 0));
    // Files in subfolders are listed with `/`; the storage names them with `:`.
    for (const { key, meta } of metas)
      sizes.set(key.replaceAll('/', ':'), Number(meta?.['size'] ?? 0));
  })().catch(() => undefined);
  const trim = async () => {
    await known;
    // Unless written again since.
    for (const key of evicted.splice(0))
      if (!sizes.has(key)) await remove(key).catch(() => undefined);
  };

  const driver = defineDriver(() => ({
    name: 'masthead-disk',
    hasItem: (key) => files.hasItem(key, {}),
    async getItem(key) {
      const text = await files.getItem(key, {});
      if (typeof text !== 'string') return null;
      const newline = text.indexOf('\n');
      const expires = Number(text.slice(0, newline));
      if (newline < 0 || !(expires > now())) {
        await remove(key).catch(() => undefined);
        return null;
      }
      return text.slice(newline + 1);
    },
    async setItem(key, value: string, topts: { ttl?: number } = {}) {
      const expires = topts.ttl ? now() + topts.ttl * 1000 : Number.MAX_SAFE_INTEGER;
      const text = `${expires}\n${value}`;
      await files.setItem?.(key, text, {});
      sizes.set(key, Buffer.byteLength(text));
      // Larger than the whole bound: lru-cache does not keep it, nor does the folder.
      if (!sizes.has(key)) evicted.push(key);
      await trim();
    },
    removeItem: remove,
    getKeys: (base) => files.getKeys(base, {}),
    async clear() {
      sizes.clear();
      await files.clear?.('', {});
    },
  }));
  return createStorage({ driver: driver(undefined) });
}

/** The running site's folder: `UPSTREAM_CACHE_DIR`, none when empty or with Redis (keys name their API). */
export function diskCacheDir(current: {
  UPSTREAM_CACHE_DIR: string;
  REDIS_URL?: string | undefined;
  CACHE_REDIS_URL?: string | undefined;
}): string | undefined {
  if (!current.UPSTREAM_CACHE_DIR || current.REDIS_URL || current.CACHE_REDIS_URL) return undefined;
  return current.UPSTREAM_CACHE_DIR;
}
