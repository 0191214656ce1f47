import { describe, expect, it } from 'vitest';
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
      ...clock,
    });
    await budget.take(key);
    await budget.observe(key, { retryAfterSeconds: 7 });
    await budget.take(key);
    expect(clock.now()).toBe(7_000);
  });

  it('counts the calls of the last minute, not of a fixed one: 2 at :50 and 3 at :60 are 5 in a minute', async () => {
    const clock = fakeClock();
    const budget = createPacingBudget({
      limits: { publishingPublicPerMinute: 3 },
      marginMs: 100,
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
