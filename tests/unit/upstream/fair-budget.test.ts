import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  budgetKeys,
  createBudget,
  createVisitorAllowance,
} from '../../../src/lib/upstream/budget.ts';
import { createReadCache } from '../../../src/lib/upstream/cache.ts';
import {
  NetworkError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
} from '../../../src/lib/upstream/errors.ts';
import { sendRequest, DEFAULT_HTTP_SETTINGS } from '../../../src/lib/upstream/http.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { crawlerName, runAsVisitor, visitorFor } from '../../../src/lib/upstream/visitor.ts';
import { json, startServer } from './helpers.ts';
import type { TestServer } from './helpers.ts';

const policy = { fresh: 10, stale: 20, errorGrace: 100 };
const ctx = { service: 'publishing' as const, tenant: 'daily-planet' };
const errCtx = { service: 'publishing' as const, operation: 'posts.get' };

function setup() {
  let clock = 1_000_000;
  const lines: string[] = [];
  const metrics = createMetrics({ log: () => undefined });
  const cache = createReadCache({ metrics, now: () => clock, log: (line) => lines.push(line) });
  return {
    cache,
    lines,
    advance: (seconds: number) => {
      clock += seconds * 1000;
    },
    counters: () => metrics.getStatus().totals,
  };
}

describe('negative caching', () => {
  it('remembers an upstream 404 briefly: the same unknown URL costs one call', async () => {
    const { cache, advance, counters } = setup();
    let calls = 0;
    const missing = () => {
      calls += 1;
      return Promise.reject(new NotFoundError('[publishing] posts.get: 404', errCtx));
    };
    for (let i = 0; i < 5; i += 1) {
      await expect(cache.read('k', policy, missing, ctx)).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(calls).toBe(1);
    expect(counters().notFoundHits).toBe(4);
    advance(61);
    await expect(cache.read('k', policy, missing, ctx)).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toBe(2);
  });

  it('a remembered 404 gives way to the value once the upstream has it', async () => {
    const { cache, advance } = setup();
    await expect(
      cache.read('k', policy, () => Promise.reject(new NotFoundError('404', errCtx)), ctx),
    ).rejects.toBeInstanceOf(NotFoundError);
    advance(61);
    expect(await cache.read('k', policy, () => Promise.resolve('published'), ctx)).toBe(
      'published',
    );
  });
});

describe('pages stay servable while the budget is spent', () => {
  const spent = () =>
    Promise.reject(
      new RateLimitedError('local budget spent', { ...errCtx, status: 429 }, 30, true),
    );

  it('serves a value past its whole window, counted and logged as such', async () => {
    const { cache, advance, counters, lines } = setup();
    await cache.read('k', policy, () => Promise.resolve('old page'), ctx);
    advance(10 * 24 * 3600);
    expect(await cache.read('k', policy, spent, ctx)).toBe('old page');
    expect(counters().staleBeyondWindow).toBe(1);
    expect(lines.some((line) => line.includes('upstream_stale_beyond_window'))).toBe(true);
  });

  it('does not stretch other failures or resources that must never be old', async () => {
    const { cache, advance } = setup();
    await cache.read('k', policy, () => Promise.resolve('old page'), ctx);
    advance(131);
    await expect(
      cache.read('k', policy, () => Promise.reject(new NetworkError('down', errCtx)), ctx),
    ).rejects.toBeInstanceOf(NetworkError);
    const availability = { fresh: 20, stale: 40, errorGrace: 0 };
    await cache.read('a', availability, () => Promise.resolve('rooms'), ctx);
    advance(61);
    await expect(cache.read('a', availability, spent, ctx)).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });
});

describe('page deadline in the cache', () => {
  it('a visitor who joins a slow call stops waiting at its deadline and gets the stale value', async () => {
    const metrics = createMetrics({ log: () => undefined });
    let clock = 1_000_000;
    const cache = createReadCache({ metrics, now: () => clock });
    await cache.read('k', policy, () => Promise.resolve('old'), ctx);
    clock += 200 * 1000; // past the error grace too: only the deadline decides
    let release: (value: string) => void = () => undefined;
    const slow = () => new Promise<string>((resolve) => (release = resolve));
    const owner = cache.read('k', policy, slow, ctx).catch((error: unknown) => error);
    const joined = runAsVisitor(
      { visitor: 'ip:1', crawler: false, deadline: Date.now() + 20 },
      () => cache.read('k', policy, slow, ctx),
    );
    await expect(joined).rejects.toBeInstanceOf(TimeoutError);
    release('new');
    expect(await owner).toBe('new');
  });
});

describe('visitor allowance', () => {
  const key = { kind: 'publishing-public' as const, key: 'http://api.example' };

  it('one visitor spends at most its share of the shared bucket, others keep theirs', async () => {
    const budget = createBudget({ limits: { publishingPublicPerMinute: 100 }, safetyRatio: 1 });
    const allowance = createVisitorAllowance(budget, { visitorShare: 0.1, humanReserve: 0.3 });
    const one = { visitor: 'ip:10.0.0.1', crawler: false };
    const results = [];
    for (let i = 0; i < 12; i += 1) results.push(await allowance.charge(key, one));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.at(-1)).toMatchObject({ ok: false });
    expect(await allowance.charge(key, { visitor: 'ip:10.0.0.2', crawler: false })).toMatchObject({
      ok: true,
    });
  });

  it('crawlers stop while the humans reserve is all that is left; humans go on', async () => {
    const budget = createBudget({ limits: { publishingPublicPerMinute: 10 }, safetyRatio: 1 });
    const allowance = createVisitorAllowance(budget, { visitorShare: 1, humanReserve: 0.3 });
    for (let i = 0; i < 7; i += 1) await budget.take(key);
    const crawler = await allowance.charge(key, { visitor: 'crawler:googlebot', crawler: true });
    expect(crawler).toMatchObject({ ok: false });
    expect(crawler.ok ? 0 : crawler.retryAfterSeconds).toBeGreaterThan(0);
    expect(await allowance.charge(key, { visitor: 'ip:10.0.0.9', crawler: false })).toMatchObject({
      ok: true,
    });
  });

  it('never charges lodging calls (bookings)', async () => {
    const budget = createBudget();
    const allowance = createVisitorAllowance(budget, { visitorShare: 0.01 });
    const lodging = { kind: 'lodging' as const, key: 'x' };
    for (let i = 0; i < 5; i += 1) {
      expect(await allowance.charge(lodging, { visitor: 'ip:1', crawler: false })).toMatchObject({
        ok: true,
      });
    }
  });
});

describe('a visitor refused by the shared budget keeps its own share', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((_r, res) => json(res, 200, { data: [] }));
  });
  afterAll(() => server.close());

  it.each([
    ['publishing pages', 'publishing', false],
    ['availability searches', 'lodging', false],
    ['the booking step', 'lodging', true],
  ] as const)('%s', async (_name, service, bookingStep) => {
    server.seen.length = 0;
    let clock = 1_000_000;
    // 10 calls a minute, all of them for anyone; 3 a visitor (searches: 2 light and 3 heavy).
    const limits = { publishingPublicPerMinute: 10, lodgingPerMinute: 10 };
    const reserves = { writeReserve: 0, bookingReserve: 0 };
    const budget = createBudget({ limits, safetyRatio: 1, ...reserves, now: () => clock });
    const allowance = createVisitorAllowance(budget, {
      visitorShare: 0.3,
      lodgingSearchShare: 0.3,
    });
    const deps = { budget, allowance, metrics: createMetrics({ log: () => undefined }) };
    const http = { ...DEFAULT_HTTP_SETTINGS, maxRetries: 0 };
    const budgetKey =
      service === 'lodging'
        ? budgetKeys.lodging(server.baseUrl, 'account', 'token')
        : budgetKeys.publishingPublic(server.baseUrl);
    const visitor = { visitor: 'ip:10.0.0.1', crawler: false, bookingStep };
    const request = { service, operation: 'test.op', tenant: 't', baseUrl: server.baseUrl };
    /** How many of `tries` calls of the visitor reached the upstream. */
    const sent = async (tries: number) => {
      let ok = 0;
      for (let i = 0; i < tries; i += 1) {
        const call = () => sendRequest({ ...deps, http }, { ...request, path: '/x', budgetKey });
        if (
          await runAsVisitor(visitor, call).then(
            () => true,
            () => false,
          )
        )
          ok += 1;
      }
      return ok;
    };
    // Others spend the whole shared budget: the visitor's pages are refused, nothing is sent.
    for (let i = 0; i < 10; i += 1) await budget.take(budgetKey, 'write');
    expect(await sent(6)).toBe(0);
    expect(server.seen).toHaveLength(0);
    // Once the shared budget has room again, the visitor has its whole share.
    clock += 61_000;
    expect(await sent(6)).toBe(service === 'lodging' && !bookingStep ? 5 : 3);
  });
});

describe('who a visitor is', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot'],
    ['Mozilla/5.0 (compatible; bingbot/2.0)', 'bingbot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)', 'gptbot'],
    ['curl/8.5.0', 'curl'],
    ['python-requests/2.32', 'python-requests'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', undefined],
    [null, undefined],
  ])('%s → %s', (userAgent, name) => {
    expect(crawlerName(userAgent)).toBe(name);
  });

  it('charges a crawler as one visitor whatever its address, a human by address', () => {
    const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1)';
    expect(visitorFor('66.249.1.1', bot).visitor).toBe(visitorFor('66.249.9.9', bot).visitor);
    expect(visitorFor('10.0.0.1', 'Mozilla/5.0 Firefox/128.0')).toMatchObject({
      visitor: 'ip:10.0.0.1',
      crawler: false,
    });
    // Loopback and private addresses are charged like any other (a local proxy sets TRUST_PROXY).
    expect(visitorFor('127.0.0.1', 'Mozilla/5.0 Firefox/128.0').visitor).toBe('ip:127.0.0.1');
    expect(visitorFor('::1', 'Mozilla/5.0 Firefox/128.0').visitor).toBe('ip:::1');
    expect(visitorFor('unknown', 'Mozilla/5.0 Firefox/128.0').visitor).toBeUndefined();
    expect(visitorFor('127.0.0.1', bot).visitor).toBe('crawler:googlebot');
  });
});
