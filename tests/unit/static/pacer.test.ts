import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPacingBudget } from '../../../src/lib/static/pacer.ts';
import type { BudgetKey } from '../../../src/lib/upstream/budget.ts';

const key: BudgetKey = { kind: 'publishing-public', key: 'http://api.test' };

/** A clock that only moves when the budget sleeps. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the build budget waits for the next window instead of refusing', () => {
  it('lets the limit through at once, then waits for the window to end', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 3 },
      marginMs: 100,
      safetyRatio: 1,
      ...clock,
    });
    const sentAt: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      expect((await budget.take(key)).ok).toBe(true);
      sentAt.push(clock.now());
      await budget.observe(key, {}); // An answer without rate headers.
    }
    expect(sentAt).toEqual([0, 0, 0, 60_100, 60_100, 60_100, 120_200]);
    expect(budget.calls).toBe(7);
    expect(budget.waitedMs).toBe(120_200);
  });

  it('sends one request first: another process may have spent the window already', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 10 },
      marginMs: 0,
      safetyRatio: 1,
      ...clock,
    });
    await budget.take(key);
    const second = budget.take(key);
    // The first answer says the window is spent; the second request waits for the next one.
    await budget.observe(key, { limit: 10, remaining: 0 });
    await second;
    expect(clock.now()).toBeGreaterThanOrEqual(60_000);
  });

  it('takes the limit from the upstream and anchors the window on its first answer', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 60 },
      marginMs: 0,
      safetyRatio: 1,
      ...clock,
    });
    await budget.take(key);
    clock.advance(500); // The answer comes back half a second later: the upstream counted from then at the latest.
    await budget.observe(key, { limit: 2, remaining: 1 });
    await budget.take(key);
    await budget.take(key);
    expect(clock.now()).toBe(60_500);
  });

  it('never sends more than the upstream says is left', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 10 },
      marginMs: 0,
      safetyRatio: 1,
      ...clock,
    });
    await budget.take(key);
    // Another client of the same address spent most of the window.
    await budget.observe(key, { limit: 10, remaining: 0 });
    await budget.take(key);
    expect(clock.now()).toBe(60_000);
  });

  it('honours Retry-After of a 429', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 10 },
      marginMs: 0,
      safetyRatio: 1,
      ...clock,
    });
    await budget.take(key);
    await budget.observe(key, { retryAfterSeconds: 7 });
    await budget.take(key);
    expect(clock.now()).toBe(7_000);
  });

  it('waits a whole window after a 429 that does not say how long', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 10 },
      marginMs: 0,
      ...clock,
    });
    await budget.take(key);
    await budget.observe(key, { rateLimited: true });
    await budget.take(key);
    expect(clock.now()).toBe(60_000);
  });

  it('counts the calls of the last minute, not of a fixed one: 2 at :50 and 3 at :60 are 5 in a minute', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 3 },
      marginMs: 100,
      safetyRatio: 1,
      ...clock,
    });
    const sentAt: number[] = [];
    const send = async () => {
      await budget.take(key);
      sentAt.push(clock.now());
      await budget.observe(key, {}); // An answer without rate headers.
    };
    await send(); // The first page at :00, then the build renders for 50 s.
    clock.advance(50_000);
    await send();
    await send();
    for (let i = 0; i < 3; i += 1) await send();
    // An upstream counting by sliding window refuses a fourth call in any minute.
    const busiest = Math.max(
      ...sentAt.map((t) => sentAt.filter((u) => u >= t && u < t + 60_000).length),
    );
    expect(busiest).toBeLessThanOrEqual(3);
    expect(sentAt).toEqual([0, 50_000, 50_000, 60_100, 110_100, 110_100]);
  });
});

describe('the build leaves the headroom the site leaves, and a rerun counts the last run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'masthead-pacer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** When each of `count` requests was let through. */
  async function sendTimes(budget: ReturnType<typeof createPacingBudget>, now: () => number) {
    const sentAt: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      await budget.take(key);
      sentAt.push(now());
      await budget.observe(key, {});
    }
    return sentAt;
  }

  it('spends 90 % of the limit in a minute (UPSTREAM_BUDGET_RATIO), like the site', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 10 },
      marginMs: 0,
      ...clock,
    });
    expect(await sendTimes(budget, clock.now)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 60_000]);
    expect(budget.capacity('publishing-public')).toBe(9);
  });

  it('keeps the same headroom on what the upstream says is left', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({ limits: {}, marginMs: 0, ...clock });
    await budget.take(key);
    // Another client spent 50 of the 60: ours is 54 - 50 = 4 more, not 10.
    await budget.observe(key, { limit: 60, remaining: 10 });
    expect(await budget.standing(key)).toMatchObject({ remaining: 4 });
  });

  it('a build run again inside the minute waits for the calls of the one before', async () => {
    const clock = fakeClock();
    const options = {
      limits: { publishingPublicPerMinute: 10 },
      marginMs: 0,
      safetyRatio: 1,
      logFile: join(dir, 'budget.json'),
      ...clock,
    };
    expect(await sendTimes(createPacingBudget(options), clock.now)).toEqual(Array(10).fill(0));
    // The build failed; the operator starts it again at once, in a new process.
    clock.advance(5_000);
    const again = await sendTimes(createPacingBudget(options), clock.now);
    expect(again[0]).toBe(60_000);
  });
});
