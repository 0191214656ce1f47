import { describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
import { cacheKey, createReadCache } from '../../../src/lib/upstream/cache.ts';
import {
  NetworkError,
  NotFoundError,
  RateLimitedError,
  UpstreamServerError,
} from '../../../src/lib/upstream/errors.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import { runAsVisitor } from '../../../src/lib/upstream/visitor.ts';

const policy = { fresh: 10, stale: 20, errorGrace: 100 };
const ctx = { service: 'publishing' as const, tenant: 'daily-planet' };
const api = 'https://api.example.com/api/v1';
const errCtx = { service: 'publishing' as const, operation: 'x' };

function setup() {
  let clock = 1_000_000;
  const metrics = createMetrics({ log: () => undefined });
  const cache = createReadCache({ metrics, now: () => clock });
  return {
    cache,
    metrics,
    advance: (seconds: number) => {
      clock += seconds * 1000;
    },
    counters: () => metrics.getStatus().totals,
  };
}

function counter() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: (value: string) => () => {
      calls += 1;
      return Promise.resolve(`${value}#${calls}`);
    },
  };
}

describe('read cache', () => {
  it('serves a fresh hit without loading', async () => {
    const { cache, counters } = setup();
    const c = counter();
    expect(await cache.read('k', policy, c.load('v'), ctx)).toBe('v#1');
    expect(await cache.read('k', policy, c.load('v'), ctx)).toBe('v#1');
    expect(c.calls).toBe(1);
    expect(counters()).toMatchObject({ misses: 1, cacheHits: 1 });
  });

  it('stale-while-revalidate: old value at once, one background refresh', async () => {
    const { cache, advance, counters } = setup();
    const c = counter();
    await cache.read('k', policy, c.load('v'), ctx);
    advance(15);
    const [a, b] = await Promise.all([
      cache.read('k', policy, c.load('v'), ctx),
      cache.read('k', policy, c.load('v'), ctx),
    ]);
    expect([a, b]).toEqual(['v#1', 'v#1']);
    await cache.settle();
    expect(c.calls).toBe(2);
    expect(await cache.read('k', policy, c.load('v'), ctx)).toBe('v#2');
    expect(counters()).toMatchObject({ staleServes: 2, cacheHits: 1 });
  });

  it('logs a bug in a background refresh (with its stack): nobody waits for it to throw', async () => {
    const { cache, advance } = setup();
    const lines: string[] = [];
    const restore = redirectLogLines((line) => lines.push(line));
    try {
      await cache.read('k', policy, () => Promise.resolve('v'), ctx);
      advance(15);
      const bug = () => Promise.reject(new URIError('URI malformed'));
      expect(await cache.read('k', policy, bug, ctx)).toBe('v');
      await cache.settle();
    } finally {
      restore();
    }
    const line = lines.map((one) => JSON.parse(one) as Record<string, unknown>).at(-1);
    expect(line).toMatchObject({ level: 'error', tenant: 'daily-planet', error: 'URIError' });
    expect(line?.['stack']).toContain('URI malformed');
  });

  it('past the stale window, loads again (a normal miss)', async () => {
    const { cache, advance } = setup();
    const c = counter();
    await cache.read('k', policy, c.load('v'), ctx);
    advance(31);
    expect(await cache.read('k', policy, c.load('v'), ctx)).toBe('v#2');
  });

  it.each([
    ['network', new NetworkError('x', errCtx)],
    ['5xx', new UpstreamServerError('x', { ...errCtx, status: 503 })],
    ['429 / budget', new RateLimitedError('x', errCtx, 5, true)],
  ])('stale-if-error on %s', async (_name, error) => {
    const { cache, advance, counters } = setup();
    await cache.read('k', policy, () => Promise.resolve('good'), ctx);
    advance(60);
    expect(await cache.read('k', policy, () => Promise.reject(error), ctx)).toBe('good');
    expect(counters().staleServes).toBe(1);
  });

  it('does not hide answers (404) behind stale values', async () => {
    const { cache, advance } = setup();
    await cache.read('k', policy, () => Promise.resolve('good'), ctx);
    advance(60);
    await expect(
      cache.read('k', policy, () => Promise.reject(new NotFoundError('gone', errCtx)), ctx),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('drops values past the error grace', async () => {
    const { cache, advance } = setup();
    await cache.read('k', policy, () => Promise.resolve('good'), ctx);
    advance(131);
    await expect(
      cache.read('k', policy, () => Promise.reject(new NetworkError('down', errCtx)), ctx),
    ).rejects.toBeInstanceOf(NetworkError);
  });

  it('coalesces 100 concurrent identical misses into one load', async () => {
    const { cache, counters } = setup();
    let calls = 0;
    // The load stays pending until every caller has asked: all 100 overlap, whatever the timing.
    const gate = Promise.withResolvers<void>();
    const load = async () => {
      calls += 1;
      await gate.promise;
      return 'v';
    };
    const pending = Promise.all(
      Array.from({ length: 100 }, () => cache.read('k', policy, load, ctx)),
    );
    gate.resolve();
    const results = await pending;
    expect(new Set(results)).toEqual(new Set(['v']));
    expect(calls).toBe(1);
    expect(counters()).toMatchObject({ misses: 1, coalesced: 99 });
  });

  it('coalesced callers share a failure, then the next read retries', async () => {
    const { cache } = setup();
    let calls = 0;
    const gate = Promise.withResolvers<void>();
    const failing = async () => {
      calls += 1;
      await gate.promise;
      throw new NetworkError('down', errCtx);
    };
    const pending = Promise.allSettled([1, 2, 3].map(() => cache.read('k', policy, failing, ctx)));
    gate.resolve();
    const results = await pending;
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(calls).toBe(1);
    await cache.read('k', policy, () => Promise.resolve('ok'), ctx);
  });

  it('fresh skips the read but stores the fresh value', async () => {
    const { cache } = setup();
    const c = counter();
    await cache.read('k', policy, c.load('v'), ctx);
    expect(await cache.read('k', policy, c.load('v'), ctx, { fresh: true })).toBe('v#2');
    expect(await cache.read('k', policy, c.load('v'), ctx)).toBe('v#2');
  });

  it('stays within its byte bound', async () => {
    const metrics = createMetrics({ log: () => undefined });
    const cache = createReadCache({ metrics, maxSizeBytes: 10_000 });
    for (let i = 0; i < 100; i += 1) {
      await cache.read(`k${i}`, policy, () => Promise.resolve('x'.repeat(500)), ctx);
    }
    expect(cache.size).toBeLessThanOrEqual(20);
  });
});

describe('cacheKey', () => {
  const base = {
    service: 'publishing' as const,
    tenant: 'daily-planet',
    api,
    operation: 'posts.get',
  };

  it('separates tenants, APIs, operations, params and identities', () => {
    const keys = new Set([
      cacheKey({ ...base, params: { slug: 'a' } }),
      cacheKey({ ...base, tenant: 'harbour-times', params: { slug: 'a' } }),
      cacheKey({ ...base, operation: 'epaper.get', params: { slug: 'a' } }),
      cacheKey({ ...base, params: { slug: 'b' } }),
      cacheKey({ ...base, params: { slug: 'a' }, token: 'user-1' }),
      cacheKey({ ...base, params: { slug: 'a' }, token: 'user-2' }),
      cacheKey({ ...base, service: 'lodging', params: { slug: 'a' } }),
      cacheKey({ ...base, api: 'https://other.example.com/api/v1', params: { slug: 'a' } }),
      cacheKey({ ...base, api: 'https://api.example.com/api/v2', params: { slug: 'a' } }),
    ]);
    expect(keys.size).toBe(9);
  });

  it('is one API however its address is written', () => {
    expect(cacheKey({ ...base, api: 'https://API.example.com:443/api/v1/' })).toBe(cacheKey(base));
  });

  it('is stable under param order and ignores undefined params', () => {
    expect(cacheKey({ ...base, params: { a: 1, b: 2, c: undefined } })).toBe(
      cacheKey({ ...base, params: { b: 2, a: 1 } }),
    );
  });

  it('never holds a token in the clear', () => {
    const key = cacheKey({ ...base, token: 'plain-token-value-123' });
    expect(key).not.toContain('plain-token-value-123');
    expect(key).toMatch(/:user:[0-9a-f]{32}\|/);
  });
});

describe('read cache: a re-read keeps what did not change', () => {
  const story = (id: number, title: string) => ({ id, title, tags: [{ name: 'city' }] });
  const list = (...titles: string[]) => ({
    items: titles.map((title, index) => story(index + 1, title)),
    page: { current: 1 },
  });

  it('a refresh with the same data hands back the very objects of the last read', async () => {
    const { cache, advance } = setup();
    const first = await cache.read('k', policy, () => Promise.resolve(list('a', 'b')), ctx);
    advance(15);
    await cache.read('k', policy, () => Promise.resolve(list('a', 'b')), ctx);
    await cache.settle();
    expect(await cache.read('k', policy, () => Promise.resolve(list('x')), ctx)).toBe(first);
  });

  it('a changed story is a new object; the stories beside it stay the same', async () => {
    const { cache, advance } = setup();
    const first = await cache.read('k', policy, () => Promise.resolve(list('a', 'b')), ctx);
    advance(31);
    const second = await cache.read(
      'k',
      policy,
      () => Promise.resolve(list('a', 'b, retitled')),
      ctx,
    );
    expect(second).not.toBe(first);
    expect(second.items[0]).toBe(first.items[0]);
    expect(second.items[1]).not.toBe(first.items[1]);
    expect(second.items[1]?.title).toBe('b, retitled');
    // Unchanged parts of the changed story are shared too; the value read is the new one.
    expect(second.items[1]?.tags).toBe(first.items[1]?.tags);
    expect(second.page).toBe(first.page);
  });

  it("another instance's refresh keeps this instance's objects where nothing changed", async () => {
    let clock = 1_000_000;
    const store = createStorage();
    const metrics = createMetrics({ log: () => undefined });
    const one = createReadCache({ metrics, now: () => clock, store });
    const two = createReadCache({ metrics, now: () => clock, store });
    const first = await one.read('k', policy, () => Promise.resolve(list('a', 'b')), ctx);
    clock += 31_000;
    await two.read('k', policy, () => Promise.resolve(list('a', 'c')), ctx);
    const adopted = await one.read('k', policy, () => Promise.resolve(list('never read')), ctx);
    expect(adopted.items.map((item) => item.title)).toEqual(['a', 'c']);
    expect(adopted.items[0]).toBe(first.items[0]);
    expect(adopted.items[1]).not.toBe(first.items[1]);
  });

  it('stops waiting for a load at the page deadline, and the load still fills the cache', async () => {
    const { cache } = setup();
    const key = cacheKey({ ...ctx, api, operation: 'posts.slow' });
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 200));
    const page = runAsVisitor({ visitor: 'ip:1', crawler: false, deadline: Date.now() + 20 }, () =>
      cache.read(key, policy, slow, ctx),
    );
    await expect(page).rejects.toMatchObject({ name: 'TimeoutError', operation: 'cache.wait' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await cache.read(key, policy, () => Promise.resolve('again'), ctx)).toBe('late');
  });
});
