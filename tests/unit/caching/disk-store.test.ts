import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheKey, createReadCache } from '../../../src/lib/upstream/cache.ts';
import { createDiskStore, diskCacheDir } from '../../../src/lib/upstream/disk-store.ts';
import { RateLimitedError } from '../../../src/lib/upstream/errors.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { TTL } from '../../../src/lib/upstream/ttl.ts';

const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'masthead-disk-cache-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ctx = { service: 'publishing' as const, tenant: 'daily-planet' };
const key = cacheKey({
  service: 'publishing',
  tenant: 'daily-planet',
  api: 'https://api.example.com/api/v1',
  operation: 'posts.list',
});
const spent = () =>
  Promise.reject(
    new RateLimitedError('local rate budget spent', { ...ctx, operation: 'posts.list' }, 30, true),
  );

describe('the data cache on disk (no Redis)', () => {
  it('survives a restart: a second cache on the same folder has the value, budget or not', async () => {
    const diskDir = folder();
    const before = createReadCache({ metrics: createMetrics(), diskDir });
    const list = { items: [{ slug: 'harbour-bridge', at: new Date(0) }] };
    await before.read(key, TTL.postList, () => Promise.resolve(list), ctx);

    // The "restarted" server: nothing in memory, the budget spent.
    const after = createReadCache({ metrics: createMetrics(), diskDir });
    expect(after.size).toBe(0);
    expect(await after.read(key, TTL.postList, spent, ctx)).toEqual(list);
  });

  it('never answers a restart pointed at another API with the first one’s values', async () => {
    const diskDir = folder();
    const before = createReadCache({ metrics: createMetrics(), diskDir });
    await before.read(key, TTL.postList, () => Promise.resolve({ items: ['old'] }), ctx);

    const after = createReadCache({ metrics: createMetrics(), diskDir });
    const moved = cacheKey({
      service: 'publishing',
      tenant: 'daily-planet',
      api: 'https://new-api.example.com/api/v1',
      operation: 'posts.list',
    });
    await expect(after.read(moved, TTL.postList, spent, ctx)).rejects.toThrow(RateLimitedError);
  });

  it('drops an expired file and keeps at most its bound, oldest written first', async () => {
    let clock = 1_000_000;
    const base = folder();
    const store = createDiskStore({ base, maxEntries: 3, now: () => clock });
    await store.setItemRaw('short', 'a', { ttl: 1 });
    clock += 2000;
    expect(await store.getItemRaw('short')).toBeNull();
    for (const name of ['one', 'two', 'three', 'four'])
      await store.setItemRaw(name, name, { ttl: 60 });
    expect(readdirSync(base).sort()).toEqual(['four', 'three', 'two']);
    expect(await store.getItemRaw('four')).toBe('four');

    // A restart reads what is there and keeps the bound.
    const again = createDiskStore({ base, maxEntries: 3, now: () => clock });
    await again.setItemRaw('five', 'five', { ttl: 60 });
    expect(readdirSync(base)).toHaveLength(3);
    expect(readdirSync(base)).toContain('five');
  });

  it('keeps at most its bytes, oldest written first, and no file larger than the bound', async () => {
    const base = folder();
    // Each file is its expiry line (7 digits and a newline) and the value: 18 bytes.
    const store = createDiskStore({ base, maxBytes: 40, now: () => 1_000_000 });
    for (const name of ['one', 'two', 'three'])
      await store.setItemRaw(name, 'x'.repeat(10), { ttl: 60 });
    expect(readdirSync(base).sort()).toEqual(['three', 'two']);
    await store.setItemRaw('huge', 'x'.repeat(100), { ttl: 60 });
    expect(readdirSync(base).sort()).toEqual(['three', 'two']);
  });

  it('is off with Redis or an empty setting', () => {
    expect(
      diskCacheDir({ UPSTREAM_CACHE_DIR: '.cache/upstream', REDIS_URL: 'redis://127.0.0.1' }),
    ).toBeUndefined();
    expect(diskCacheDir({ UPSTREAM_CACHE_DIR: '' })).toBeUndefined();
    expect(diskCacheDir({ UPSTREAM_CACHE_DIR: '.cache/upstream' })).toBe('.cache/upstream');
  });
});
