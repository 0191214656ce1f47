import { describe, expect, it } from 'vitest';
import { cacheKey, createReadCache } from '../../../src/lib/upstream/cache.ts';
import { NetworkError, NotFoundError } from '../../../src/lib/upstream/errors.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';

const policy = { fresh: 60, stale: 600, errorGrace: 3600 };
const ctx = { service: 'publishing' as const, tenant: 'daily-planet' };
const key = (operation: string, tenant = 'daily-planet') =>
  cacheKey({
    service: 'publishing',
    tenant,
    api: 'https://api.example.com/api/v1',
    operation,
    params: { page: 1 },
  });

function setup() {
  let clock = 1_000_000;
  const cache = createReadCache({
    metrics: createMetrics({ log: () => undefined }),
    now: () => clock,
  });
  return { cache, tick: () => (clock += 1) };
}

describe('invalidating the read cache (the change watcher, purges)', () => {
  it('makes a fresh value of the operations named load again, and no other', async () => {
    const { cache, tick } = setup();
    await cache.read(key('posts.list'), policy, () => Promise.resolve('old list'), ctx);
    await cache.read(key('plans.list'), policy, () => Promise.resolve('plans'), ctx);
    await cache.read(key('posts.list', 'alpine-post'), policy, () => Promise.resolve('alp'), ctx);
    tick();
    cache.invalidate({ service: 'publishing', tenant: 'daily-planet', operations: ['posts.list'] });
    tick();
    const again = (value: string) => () => Promise.resolve(value);
    expect(await cache.read(key('posts.list'), policy, again('new list'), ctx)).toBe('new list');
    expect(await cache.read(key('plans.list'), policy, again('x'), ctx)).toBe('plans');
    const other = await cache.read(key('posts.list', 'alpine-post'), policy, again('x'), ctx);
    expect(other).toBe('alp');
    // Loaded after the invalidation: fresh again.
    expect(await cache.read(key('posts.list'), policy, again('newer'), ctx)).toBe('new list');
  });

  it('forgets a remembered 404 (a post published since)', async () => {
    const { cache, tick } = setup();
    const missing = () =>
      Promise.reject(
        new NotFoundError('gone', { service: 'publishing', operation: 'posts.get', status: 404 }),
      );
    await expect(cache.read(key('posts.get'), policy, missing, ctx)).rejects.toThrow('gone');
    tick();
    cache.invalidate({ service: 'publishing', tenant: 'daily-planet' });
    tick();
    expect(await cache.read(key('posts.get'), policy, () => Promise.resolve('post'), ctx)).toBe(
      'post',
    );
  });

  it('still serves the old value while the upstream is away', async () => {
    const { cache, tick } = setup();
    await cache.read(key('posts.list'), policy, () => Promise.resolve('old list'), ctx);
    tick();
    cache.invalidate({ service: 'publishing', tenant: 'daily-planet' });
    tick();
    const down = () =>
      Promise.reject(new NetworkError('down', { service: 'publishing', operation: 'posts.list' }));
    expect(await cache.read(key('posts.list'), policy, down, ctx)).toBe('old list');
  });
});
