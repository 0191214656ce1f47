import { describe, expect, it } from 'vitest';
import { budgetKeys, createBudget } from '../../../src/lib/upstream/budget.ts';
import type { Budget, BudgetKey, Priority } from '../../../src/lib/upstream/budget.ts';

const base = 'http://127.0.0.1:4000/api/v1';
const key: BudgetKey = budgetKeys.publishingPublic(base);
const MINUTE = 60_000;

/** A budget on a clock the test moves (the in-memory log reads `now`). */
function clocked(options: Parameters<typeof createBudget>[0] = {}) {
  let clock = 1_000_000;
  const budget = createBudget({ ...options, now: () => clock });
  return {
    budget,
    at: () => clock,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** mulberry32: a seeded generator, so a failing case can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The most calls in any `span`-long window: every window ending at a call is checked. */
function busiestSpan(times: readonly number[], span: number): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while ((times[last] ?? 0) - (times[first] ?? 0) >= span) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

async function takeMany(budget: Budget, n: number, priority: Priority): Promise<number> {
  let ok = 0;
  for (let i = 0; i < n; i += 1) if ((await budget.take(key, priority)).ok) ok += 1;
  return ok;
}

describe('the sliding budget', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'never lets more than its capacity into any 60 s span (random calls, seed %i)',
    async (seed) => {
      const random = rng(seed);
      const { budget, at, advance } = clocked({ limits: { publishingPublicPerMinute: 60 } });
      const capacity = budget.capacity('publishing-public');
      const priorities: Priority[] = ['write', 'read', 'background'];
      const sent: number[] = [];
      // Ten simulated minutes of bursts and lulls, at every priority, with the odd 429.
      while (at() < 1_000_000 + 10 * MINUTE) {
        const burst = random() < 0.1;
        advance(burst ? Math.floor(random() * 50) : Math.floor(random() * 4000));
        const priority = priorities[Math.floor(random() * 3)] ?? 'read';
        if ((await budget.take(key, priority)).ok) sent.push(at());
        if (random() < 0.005) {
          await budget.observe(key, { rateLimited: true, retryAfterSeconds: random() * 5 });
        }
      }
      expect(sent.length).toBeGreaterThan(capacity * 3);
      expect(busiestSpan(sent, MINUTE)).toBeLessThanOrEqual(capacity);
    },
  );

  it('spends its whole budget across a window boundary no faster than a sliding window allows', async () => {
    // A fixed window would let 54 through at 0:59 and 54 more at 1:00.
    const { budget, advance } = clocked();
    advance(59_000);
    expect(await takeMany(budget, 100, 'write')).toBe(54);
    advance(1_500);
    expect(await takeMany(budget, 100, 'write')).toBe(0);
    advance(59_000);
    expect(await takeMany(budget, 100, 'write')).toBe(54);
  });

  it('refills one call per call leaving the window, not in one go', async () => {
    const { budget, advance } = clocked({ limits: { publishingPublicPerMinute: 10 } });
    for (let i = 0; i < 9; i += 1) {
      expect((await budget.take(key, 'write')).ok).toBe(true);
      advance(1000);
    }
    // Calls at 0 s … 8 s; at 60.5 s only the first has left.
    advance(60_500 - 9000);
    expect(await takeMany(budget, 5, 'write')).toBe(1);
    advance(1000);
    expect(await takeMany(budget, 5, 'write')).toBe(1);
  });
});

describe('after a 429', () => {
  it('stays shut for a Retry-After shorter than the window, and no longer', async () => {
    const { budget, advance } = clocked();
    await budget.take(key, 'read');
    advance(10_000);
    await budget.take(key, 'read');
    advance(10_000);
    // Someone else spent the address' budget: at 20 s the upstream answers 429, Retry-After 7.
    await budget.observe(key, { rateLimited: true, retryAfterSeconds: 7 });
    advance(3_000);
    expect(await budget.take(key, 'write')).toEqual({ ok: false, retryAfterSeconds: 4 });
    advance(3_900);
    expect((await budget.take(key, 'write')).ok).toBe(false);
    advance(200);
    // 27.1 s: the upstream takes calls again, "busy" for 7 s, not a minute; our own two still count.
    expect(await takeMany(budget, 100, 'write')).toBe(52);
  });

  it('stays shut for Retry-After when that is longer than the log', async () => {
    const { budget, advance } = clocked();
    await budget.take(key, 'read');
    await budget.observe(key, { rateLimited: true, retryAfterSeconds: 90 });
    advance(89_000);
    expect((await budget.take(key, 'write')).ok).toBe(false);
    advance(1_100);
    // The padding of the 429 left 30 s ago: the whole budget is back.
    expect(await takeMany(budget, 100, 'write')).toBe(54);
  });

  it('without Retry-After (the contract does not promise it) stays shut a whole minute', async () => {
    const { budget, advance } = clocked();
    await budget.observe(key, { rateLimited: true });
    advance(59_000);
    expect(await takeMany(budget, 5, 'write')).toBe(0);
    advance(1_100);
    expect(await takeMany(budget, 100, 'write')).toBe(54);
  });

  it('without Retry-After, readers wait until the padding has left, not just the oldest call', async () => {
    const { budget, advance } = clocked({ writeReserve: 0.2 });
    for (let i = 0; i < 10; i += 1) await budget.take(key, 'read');
    advance(30_000);
    await budget.observe(key, { rateLimited: true });
    advance(30_500);
    // The ten calls left; the padding (44 calls stamped at the 429) has not: reads stay off.
    expect(await takeMany(budget, 5, 'read')).toBe(0);
    expect(await takeMany(budget, 20, 'write')).toBe(10);
    advance(30_000);
    expect(await takeMany(budget, 100, 'read')).toBeGreaterThan(0);
  });
});

describe('priorities', () => {
  it('keeps a reserve only writes may spend', async () => {
    const { budget } = clocked({ writeReserve: 0.2 });
    // 54 a minute: readers stop at 54 - 11 = 43, sign-ins and comments still have 11.
    expect(await takeMany(budget, 100, 'read')).toBe(43);
    expect(await takeMany(budget, 100, 'write')).toBe(11);
    expect(budget.ceiling('publishing-public', 'read')).toBe(43);
  });

  it('readers spent out cannot take the writes their reserve (the soak of issue 35)', async () => {
    const { budget, advance } = clocked();
    let refusedWrites = 0;
    // Readers ask far more than the budget all the time; a sign-in or comment every 12 s
    // (5 a minute, within the 6 of the default 10 % reserve).
    for (let second = 0; second < 600; second += 1) {
      await takeMany(budget, 3, 'read');
      if (second % 12 === 0 && !(await budget.take(key, 'write')).ok) refusedWrites += 1;
      advance(1000);
    }
    expect(refusedWrites).toBe(0);
  });

  it('lets watchers spend only what readers leave beyond their headroom', async () => {
    const { budget } = clocked({ backgroundHeadroom: 0.25 });
    // 54: writes 54, readers 48, watchers only while fewer than 48 - 14 = 34 calls were made.
    expect(budget.ceiling('publishing-public', 'read')).toBe(48);
    expect(budget.ceiling('publishing-public', 'background')).toBe(34);
    expect(await takeMany(budget, 25, 'read')).toBe(25);
    expect(await takeMany(budget, 20, 'background')).toBe(9);
    // Readers still have theirs.
    expect(await takeMany(budget, 100, 'read')).toBe(48 - 34);
  });

  it('refuses a watcher with the time until it may look', async () => {
    const { budget, advance } = clocked();
    // By default watchers leave readers 10 %: they stop at 48 - 6 = 42 calls in the window.
    expect(budget.ceiling('publishing-public', 'background')).toBe(42);
    await takeMany(budget, 42, 'read');
    advance(20_000);
    const refused = await budget.take(key, 'background');
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 40 });
  });
});
