import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetKeys, createBudget, createVisitorAllowance } from '../../src/lib/upstream/budget.ts';
import type { Budget, Priority } from '../../src/lib/upstream/budget.ts';
import { closeRedis } from '../../src/lib/upstream/redis.ts';
import { startRedisServer } from './redis-server.ts';
import type { RedisServer } from './redis-server.ts';

/**
 * The budget's sliding log on Redis (one Lua script, Redis' clock): two servers share it, and
 * together they never send more than the budget in any window, whatever the window's phase.
 * The window is 2 s so the test takes seconds; the script is the same at 60 s.
 */
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await closeRedis();
  await redis.stop();
});

const WINDOW_MS = 2000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function servers(prefix: string): [Budget, Budget] {
  const options = {
    limits: { publishingPublicPerMinute: 20 },
    windowSeconds: WINDOW_MS / 1000,
    keyPrefix: prefix,
  };
  return [
    createBudget({ ...options, redisUrl: redis.url }),
    createBudget({ ...options, redisUrl: `${redis.url}/0` }),
  ];
}

const key = budgetKeys.publishingPublic('http://127.0.0.1:4010/api/v1');

/**
 * Calls each known only to lie between `before` and `after` (sent then, answered then): the most
 * that surely fell inside one `span`, i.e. whose whole bracket is shorter than it.
 */
function surelyInOneSpan(calls: readonly { before: number; after: number }[], span: number) {
  const sorted = [...calls].sort((x, y) => x.before - y.before);
  let most = 0;
  for (let first = 0; first < sorted.length; first += 1) {
    let latest = 0;
    for (let last = first; last < sorted.length; last += 1) {
      latest = Math.max(latest, sorted[last]?.after ?? 0);
      if (latest - (sorted[first]?.before ?? 0) >= span) break;
      most = Math.max(most, last - first + 1);
    }
  }
  return most;
}

describe('the sliding budget on Redis', () => {
  it('a call given back (it never reached the upstream) is free again for both servers', async () => {
    const [a, b] = servers('test:sliding:refund');
    while ((await a.take(key, 'write')).ok);
    await a.refund(key);
    expect(await b.take(key, 'write')).toMatchObject({ ok: true });
    expect(await a.take(key, 'write')).toMatchObject({ ok: false });
  });

  it('two servers hammering one bucket for three windows: never more than 18 in any 2 s', async () => {
    const [a, b] = servers('test:sliding:both');
    const sent: { before: number; after: number }[] = [];
    const priorities: Priority[] = ['write', 'read', 'background'];
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 3 * WINDOW_MS) {
      n += 1;
      const budget = n % 2 === 0 ? a : b;
      const before = Date.now();
      const res = await budget.take(key, priorities[n % 3]);
      if (res.ok) sent.push({ before, after: Date.now() });
      await wait(n % 7 === 0 ? 40 : 3);
    }
    expect(a.capacity('publishing-public')).toBe(18);
    expect(surelyInOneSpan(sent, WINDOW_MS)).toBeLessThanOrEqual(18);
    expect(sent.length).toBeGreaterThanOrEqual(18 * 2);
  });

  it('keeps the write reserve across servers', async () => {
    const [a, b] = servers('test:sliding:reserve');
    let reads = 0;
    for (let i = 0; i < 30; i += 1) if ((await a.take(key, 'read')).ok) reads += 1;
    // 18: readers 16, the last 2 for sign-ins, comments, bookings, on the other server too.
    expect(reads).toBe(16);
    expect((await b.take(key, 'read')).ok).toBe(false);
    expect((await b.take(key, 'write')).ok).toBe(true);
    expect((await a.take(key, 'write')).ok).toBe(true);
    expect((await b.take(key, 'write')).ok).toBe(false);
  });

  it('a 429 with Retry-After seen by one server shuts the bucket on the other for that long only', async () => {
    const [a, b] = servers('test:sliding:429-short');
    expect((await a.take(key, 'read')).ok).toBe(true);
    await a.observe(key, { rateLimited: true, retryAfterSeconds: 0.5 });
    expect((await b.take(key, 'write')).ok).toBe(false);
    await wait(700);
    expect((await b.take(key, 'read')).ok).toBe(true);
  });

  it('a 429 without Retry-After seen by one server shuts the bucket on the other for the window', async () => {
    const [a, b] = servers('test:sliding:429');
    expect((await a.take(key, 'read')).ok).toBe(true);
    await wait(800);
    // 0.8 s: someone else spent the address' budget; the upstream does not say for how long.
    await a.observe(key, { rateLimited: true });
    await wait(500);
    expect((await b.take(key, 'write')).ok).toBe(false);
    // 2.1 s: the first call has left: one write; the padding of the 429 keeps readers out.
    await wait(800);
    expect((await b.take(key, 'write')).ok).toBe(true);
    expect((await b.take(key, 'write')).ok).toBe(false);
    expect((await b.take(key, 'read')).ok).toBe(false);
    // 2.9 s: the padding has left too.
    await wait(800);
    expect((await b.take(key, 'read')).ok).toBe(true);
  });

  it('stays shut for a Retry-After longer than the window', async () => {
    const [a, b] = servers('test:sliding:long');
    await a.observe(key, { rateLimited: true, retryAfterSeconds: 3 });
    await wait(WINDOW_MS + 200);
    const refused = await b.take(key, 'write');
    expect(refused.ok).toBe(false);
    await wait(1000);
    expect((await b.take(key, 'write')).ok).toBe(true);
  });

  it('a visitor share given back on one server is there for the other, and still shared', async () => {
    const allowances = servers('test:sliding:refund').map((budget) =>
      createVisitorAllowance(budget, { visitorShare: 0.1, redisUrl: redis.url }),
    );
    const [onA, onB] = allowances as [(typeof allowances)[0], (typeof allowances)[0]];
    const visitor = { visitor: 'ip:203.0.113.9', crawler: false };
    // Its share (2 of the 18), charged on both servers; the shared budget then refused both calls.
    for (const charge of [await onA.charge(key, visitor), await onB.charge(key, visitor)]) {
      expect(charge.ok).toBe(true);
      if (charge.ok) await charge.refund();
    }
    // Given back: two more calls, on either server, and no third.
    expect((await onB.charge(key, visitor)).ok).toBe(true);
    expect((await onA.charge(key, visitor)).ok).toBe(true);
    expect((await onA.charge(key, visitor)).ok).toBe(false);
  });
});

describe('when Redis goes away or comes back empty inside a window', () => {
  it('a server still counts the calls it sent through Redis', async () => {
    const own = await startRedisServer();
    const port = Number(new URL(own.url).port);
    const budget = createBudget({
      limits: { publishingPublicPerMinute: 10 },
      safetyRatio: 1,
      redisUrl: own.url,
      keyPrefix: 'test:sliding:away',
    });
    let sent = 0;
    while (sent < 20 && (await budget.take(key, 'write')).ok) sent += 1;
    expect(sent).toBe(10);
    await own.stop();
    // Away: the upstream still counts those ten this minute.
    expect((await budget.take(key, 'write')).ok).toBe(false);
    // Back without its data (no persistence): still the same minute upstream.
    const back = await startRedisServer(port);
    try {
      expect((await budget.take(key, 'write')).ok).toBe(false);
    } finally {
      await back.stop();
    }
  });
});
