/**
 * The shared store (tracker issue 4): two upstream instances, as two servers behind a load
 * balancer would run them, each with its own LRU, coalescing, insurance limiter and Redis
 * connection, sharing one real `redis-server`. Needs `/usr/bin/redis-server` (or `REDIS_SERVER`);
 * `.ci/run` installs it. Without it the suite fails, it never skips.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort, redisAnswers } from '../fixtures/net.ts';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { publishingClient } from '../../src/lib/publishing/client.ts';
import {
  cacheKey,
  createReadCache,
  decodeEntry,
  sharedStoreKey,
} from '../../src/lib/upstream/cache.ts';
import { RateLimitedError } from '../../src/lib/upstream/errors.ts';
import { createMetrics } from '../../src/lib/upstream/metrics.ts';
import { redirectLogLines } from '../../src/lib/log/log.ts';
import { closeRedis, getRedis } from '../../src/lib/upstream/redis.ts';
import type { Upstream, UpstreamOptions } from '../../src/lib/upstream/runtime.ts';
import { ctl, demo, freshUpstream, PASSWORD, startTestMock } from './harness.ts';
import type { Mock } from './harness.ts';
import { lodgingTestClient } from './operations.ts';

const REDIS_SERVER = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';
const CACHE_PREFIX = 'masthead:cache:';

interface RedisServer {
  url: string;
  port: number;
  /** SIGKILL, as a crashed or unreachable Redis. */
  kill(): Promise<void>;
  /** Starts again on the same port (empty: no persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const exited = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const launch = async () => {
    const proc = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = proc;
    for (let i = 0; i < 100; i += 1) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}`);
      if (await redisAnswers(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const signal = async (name: NodeJS.Signals) => {
    if (!child) return;
    const proc = child;
    child = undefined;
    proc.kill(name);
    await exited(proc);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => signal('SIGKILL'),
    restart: launch,
    stop: () => signal('SIGTERM'),
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let mock: Mock;
let redis: RedisServer;
let admin: Redis;

beforeAll(async () => {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `redis-server not found at ${REDIS_SERVER}: the Redis integration suite needs it. ` +
        'Install it (Debian: apt-get install -y redis-server; .ci/run does) or set REDIS_SERVER.',
    );
  }
  [mock, redis] = await Promise.all([startTestMock(), startRedis()]);
  admin = new Redis(redis.url);
});
afterAll(async () => {
  await closeRedis();
  admin?.disconnect();
  await redis?.stop();
  await mock?.close();
});
beforeEach(async () => {
  await ctl.reset(mock);
  await ctl.clearFaults(mock);
  await admin.flushall();
});
afterEach(async () => {
  // Each test's instances get their own connections.
  await closeRedis();
  vi.restoreAllMocks();
});

/**
 * Two server instances: own LRU, own in-flight map, own budget insurance, own connection (two URL
 * spellings of one server, so two ioredis clients as two processes would have), one Redis.
 */
function instances(options: UpstreamOptions = {}, url = redis.url): [Upstream, Upstream] {
  return [
    freshUpstream({ ...options, redisUrl: url }).up,
    freshUpstream({ ...options, redisUrl: `${url}/0` }).up,
  ];
}

const pub = (up: Upstream, token?: string, tenantId = 'daily-planet') =>
  publishingClient({ tenantId, baseUrl: mock.publishingUrl, upstream: up, token });

async function dump(): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for (const key of await admin.keys('*')) {
    const type = await admin.type(key);
    const value =
      type === 'string'
        ? ((await admin.get(key)) ?? '')
        : type === 'hash'
          ? JSON.stringify(await admin.hgetall(key))
          : type;
    entries.set(key, value);
  }
  return entries;
}

describe('shared cache across instances', () => {
  it('a value read through instance A is a cache hit on instance B', async () => {
    const [a, b] = instances();
    const first = await pub(a).listPosts({ category: 'news' });
    const post = await pub(a).getPost(first.items[0]?.slug ?? '');

    expect(await pub(b).listPosts({ category: 'news' })).toStrictEqual(first);
    expect(await pub(b).getPost(post.slug)).toStrictEqual(post);

    const stats = await ctl.stats(mock);
    expect(stats.publishing.routes['GET /posts']).toBe(1);
    expect(stats.publishing.routes['GET /posts/{slug}']).toBe(1);
    expect(stats.publishing.total).toBe(2);
    expect(b.metrics.getStatus().totals).toMatchObject({ cacheHits: 2, upstreamCalls: 0 });
  });

  it('with the budget spent, an instance that never saw a page serves it from the shared store, however old', async () => {
    const policy = { fresh: 1, stale: 1, errorGrace: 1 };
    const context = { service: 'publishing', tenant: 'daily-planet' } as const;
    let clock = Date.now();
    const cacheOn = (url: string) =>
      createReadCache({
        metrics: createMetrics({ log: () => undefined }),
        redisUrl: url,
        now: () => clock,
        log: () => undefined,
      });
    const a = cacheOn(redis.url);
    await a.read('k:old-page', policy, () => Promise.resolve('old page'), context);
    clock += 24 * 3600 * 1000; // a day past its whole window
    const b = cacheOn(`${redis.url}/0`);
    const spent = () =>
      Promise.reject(
        new RateLimitedError(
          'spent',
          { service: 'publishing', operation: 'x', status: 429 },
          30,
          true,
        ),
      );
    expect(await b.read('k:old-page', policy, spent, context)).toBe('old page');
  });

  it('values survive the trip exactly (dates, undefined) and expire in Redis: a week when they may be served beyond their window, else with the policy', async () => {
    const policy = { fresh: 30, stale: 60, errorGrace: 300 };
    const context = { service: 'publishing', tenant: 'daily-planet' } as const;
    const cacheOn = (url: string) =>
      createReadCache({ metrics: createMetrics({ log: () => undefined }), redisUrl: url });
    const a = cacheOn(redis.url);
    const b = cacheOn(`${redis.url}/0`);
    const value = {
      at: new Date('2024-05-01T10:00:00.000Z'),
      missing: undefined,
      list: [1, undefined, null, 'x'],
      nested: { when: [new Date(0)], empty: {} },
    };
    const never = () => Promise.reject(new Error('B must not load'));
    expect(await a.read('k:value', policy, () => Promise.resolve(value), context)).toBe(value);
    expect(await b.read('k:value', policy, never, context)).toStrictEqual(value);
    // An `undefined` result is a value too.
    await a.read('k:undefined', policy, () => Promise.resolve(undefined), context);
    expect(await b.read('k:undefined', policy, never, context)).toBeUndefined();

    // Kept for its whole window when its kind says no longer (./ttl.ts `keep`; tests/integration/cache-bounds.test.ts).
    const ttl = await admin.ttl(`${CACHE_PREFIX}${sharedStoreKey('k:value')}`);
    expect(ttl).toBeGreaterThan(390 - 10);
    expect(ttl).toBeLessThanOrEqual(390);
    const noGrace = { fresh: 5, stale: 0, errorGrace: 0 };
    await a.read('k:short', noGrace, () => Promise.resolve(1), context);
    expect(await admin.ttl(`${CACHE_PREFIX}${sharedStoreKey('k:short')}`)).toBe(5);
    for (const [key] of await dump()) {
      if (key.startsWith(CACHE_PREFIX)) expect(await admin.ttl(key)).toBeGreaterThan(0);
    }
  });

  it('a stale entry on one instance picks up a fresher one another instance stored', async () => {
    let clock = Date.now();
    const [a, b] = instances({ now: () => clock });
    await pub(a).listTags();
    clock += 6 * 60 * 1000; // tags: past fresh (5 min) for both
    await pub(b).listTags({ fresh: true }); // B refreshes, stores in Redis
    expect(await pub(a).listTags()).toBeTruthy(); // A finds the fresh copy: no SWR refresh
    await a.cache.settle();
    expect((await ctl.stats(mock)).publishing.routes['GET /tags']).toBe(2);
    expect(a.metrics.getStatus().totals).toMatchObject({ cacheHits: 1, staleServes: 0 });
  });

  it('stale-if-error: the upstream down, B serves what A cached', async () => {
    let clock = Date.now();
    const [a, b] = instances({ now: () => clock });
    const plans = await pub(a).listPlans();
    await ctl.faults(mock, { service: 'publishing', down: true });
    clock += 2 * 60 * 60 * 1000; // past fresh + stale (70 min), inside errorGrace (1 day)
    expect(await pub(b).listPlans()).toStrictEqual(plans);
    const totals = b.metrics.getStatus().totals;
    expect(totals.staleServes).toBe(1);
    expect(totals.errors['NetworkError']).toBeGreaterThan(0);
  });
});

describe('shared budget across instances', () => {
  it('publicPerMinute 10: a burst split across A and B sends at most the budget, zero 429s', async () => {
    await ctl.limits(mock, { publicPerMinute: 10 });
    const [a, b] = instances({ limits: { publishingPublicPerMinute: 10 } });
    // Both instances spend first (each alone would allow itself 9): A lists, B reads the tags.
    const slugs = (await pub(a).listPosts({ perPage: 50 })).items.map((p) => p.slug);
    await pub(b).listTags();
    expect(slugs.length).toBe(50);

    const results = await Promise.allSettled(
      slugs.map((slug, i) => pub(i % 2 === 0 ? a : b).getPost(slug)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const failed = results.filter((r) => r.status === 'rejected');
    // 9 spendable (90% of 10) in total, 1 kept for writes, two went on the warm-up reads.
    expect(ok).toBe(6);
    expect(failed.every((r) => r.reason instanceof RateLimitedError && r.reason.local)).toBe(true);

    const [ta, tb] = [a.metrics.getStatus().totals, b.metrics.getStatus().totals];
    expect(ta.rateLimited429 + tb.rateLimited429).toBe(0);
    expect(ta.budgetRejected + tb.budgetRejected).toBe(44);
    expect(ta.upstreamCalls + tb.upstreamCalls).toBe(8);
    const stats = await ctl.stats(mock);
    expect(stats.publishing.total).toBe(8);
    // The counter lives in Redis, with the window as its TTL.
    const budgetKeys = [...(await dump()).keys()].filter((k) => k.startsWith('masthead:budget:'));
    expect(budgetKeys).toHaveLength(1);
    const pttl = await admin.pttl(budgetKeys[0] ?? '');
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });
});

describe('nothing sensitive in Redis', () => {
  it('no token in any key or value; personal entries are keyed per user', async () => {
    const [a, b] = instances();
    const { token: subscriberToken } = await pub(a).login('subscriber@masthead.test', PASSWORD);
    const { token: readerToken } = await pub(a).login('reader@masthead.test', PASSWORD);
    const paid = (await pub(a).listEditions({ perPage: 50 })).items.find((e) => !e.is_free);
    if (!paid) throw new Error('no paid edition');

    const full = await pub(a, subscriberToken).getEdition(paid.slug);
    expect(full.pages.length).toBeGreaterThan(0);
    expect((await pub(b).getEdition(paid.slug)).pages).toEqual([]);
    expect((await pub(b, readerToken).getEdition(paid.slug)).pages).toEqual([]);
    const before = (await ctl.stats(mock)).publishing.routes['GET /epaper/{slug}'];
    expect(await pub(b, subscriberToken).getEdition(paid.slug)).toStrictEqual(full);
    expect((await ctl.stats(mock)).publishing.routes['GET /epaper/{slug}']).toBe(before);
    await pub(b, subscriberToken).me();

    const account = demo.lodging['harbour-hotels'];
    if (!account) throw new Error('demo account missing');
    const lodging = lodgingTestClient({
      accountKey: 'harbour-hotels',
      baseUrl: mock.lodgingUrl,
      upstream: b,
      token: account.readToken,
    });
    await lodging.me();
    await lodging.listProperties();
    const byLogin = lodgingTestClient({
      accountKey: 'harbour-hotels',
      baseUrl: mock.lodgingUrl,
      upstream: a,
      email: account.email,
      password: account.password,
    });
    await byLogin.listProperties();

    const stored = await dump();
    expect(stored.size).toBeGreaterThan(5);
    const secrets = [subscriberToken, readerToken, account.readToken, account.fullToken, PASSWORD];
    for (const [key, value] of stored) {
      for (const secret of secrets) {
        expect(key).not.toContain(secret);
        expect(value).not.toContain(secret);
      }
    }

    // The edition under each identity: the subscriber's full copy only under their own key.
    const editionKey = (token?: string) =>
      `${CACHE_PREFIX}${sharedStoreKey(
        cacheKey({
          service: 'publishing',
          tenant: 'daily-planet',
          api: mock.publishingUrl,
          operation: 'epaper.get',
          params: { slug: paid.slug },
          token,
        }),
      )}`;
    const pagesUnder = (key: string) => {
      const raw = stored.get(key);
      if (raw === undefined) throw new Error(`no entry at ${key}`);
      return (decodeEntry(raw)?.value as { pages: unknown[] }).pages.length;
    };
    expect(pagesUnder(editionKey(subscriberToken))).toBe(full.pages.length);
    expect(pagesUnder(editionKey(readerToken))).toBe(0);
    expect(pagesUnder(editionKey(undefined))).toBe(0);
  });
});

describe('Redis going away', () => {
  it('degrades to the local cache, logs once per connection, never fails a read, recovers', async () => {
    const lost = await startRedis();
    // Log lines go through the one logger (pino); ioredis's own would go to the console.
    const warn = { mock: { calls: [] as unknown[][] } };
    const restoreLog = redirectLogLines((line) => warn.mock.calls.push([line]));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const [a, b] = instances({}, lost.url);
      const plans = await pub(a).listPlans();
      await lost.kill();

      const started = Date.now();
      expect(await pub(a).listPlans()).toStrictEqual(plans); // A's own LRU
      expect(await pub(b).listPlans()).toStrictEqual(plans); // B: a miss, from the upstream
      for (const up of [a, b, a, b]) {
        await pub(up).listTags();
        await pub(up).listCategories();
      }
      expect(Date.now() - started).toBeLessThan(3000);
      const stats = await ctl.stats(mock);
      expect(stats.publishing.routes['GET /plans']).toBe(2);
      expect(stats.publishing.routes['GET /tags']).toBe(2); // each instance's LRU still works

      const lines = (spy: { mock: { calls: unknown[][] } }) =>
        spy.mock.calls.map((call) => String(call[0]));
      const down = lines(warn).filter((l) => l.includes('upstream.redis.unavailable'));
      expect(down).toHaveLength(2); // once per connection, not once per failed command
      expect(down.join('\n')).not.toContain(PASSWORD);
      expect(lines(error).filter((l) => l.includes('ioredis'))).toEqual([]);

      await lost.restart();
      const clients = await Promise.all([getRedis(lost.url), getRedis(`${lost.url}/0`)]);
      await until(() => clients.every((c) => c.status === 'ready'), 'Redis reconnect');
      const post = await pub(a).getPost('welcome-to-our-new-website');
      expect(await pub(b).getPost(post.slug)).toStrictEqual(post);
      expect((await ctl.stats(mock)).publishing.routes['GET /posts/{slug}']).toBe(1);
      expect(lines(warn).filter((l) => l.includes('upstream.redis.restored'))).toHaveLength(2);
    } finally {
      restoreLog();
      await closeRedis();
      await lost.stop();
    }
  });
});
