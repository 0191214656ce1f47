import { describe, expect, it, vi } from 'vitest';
import { budgetKeys, createBudget } from '../../../src/lib/upstream/budget.ts';
import type { Priority } from '../../../src/lib/upstream/budget.ts';

const base = 'http://127.0.0.1:4000/api/v1';

async function spend(
  budget: ReturnType<typeof createBudget>,
  key: ReturnType<typeof budgetKeys.publishingPublic>,
  n: number,
  priority: Priority = 'write',
) {
  let ok = 0;
  for (let i = 0; i < n; i += 1) if ((await budget.take(key, priority)).ok) ok += 1;
  return ok;
}

describe('budget', () => {
  it('never spends more than the safety share of the limit', async () => {
    const budget = createBudget({ limits: { publishingPublicPerMinute: 10 } });
    const key = budgetKeys.publishingPublic(base);
    expect(await spend(budget, key, 50)).toBe(9);
    const refused = await budget.take(key, 'write');
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it.each([
    ['publishing-token', 240, 216],
    ['lodging', 60, 54],
    ['publishing-public', 60, 54],
  ] as const)('%s defaults to %i/min, spends %i', async (kind, _limit, expected) => {
    const budget = createBudget();
    expect((await budget.standing({ kind, key: 'x' })).remaining).toBe(expected);
  });

  it('shares one anonymous bucket across tenants (per upstream origin)', () => {
    expect(budgetKeys.publishingPublic(`${base}`)).toEqual(
      budgetKeys.publishingPublic('http://127.0.0.1:4000/other'),
    );
    expect(budgetKeys.publishingPublic(base)).not.toEqual(
      budgetKeys.publishingPublic('http://127.0.0.1:4001/api/v1'),
    );
  });

  it('keys token buckets by tenant and token hash, never the token', () => {
    const a = budgetKeys.publishingToken(base, 'daily-planet', 'tok-secret');
    const b = budgetKeys.publishingToken(base, 'harbour-times', 'tok-secret');
    expect(a).not.toEqual(b);
    expect(a.key).not.toContain('tok-secret');
    expect(budgetKeys.lodging(base, 'acc', 'tok-secret').key).not.toContain('tok-secret');
  });

  it('lowers itself when the upstream says fewer remain', async () => {
    const budget = createBudget({ limits: { publishingPublicPerMinute: 60 } });
    const key = budgetKeys.publishingPublic(base);
    await budget.take(key);
    // Others used this IP's quota: 10 left upstream, keep the 6-request reserve → 4 for us.
    await budget.observe(key, { limit: 60, remaining: 10 });
    expect((await budget.standing(key)).remaining).toBe(4);
    expect(await spend(budget, key, 20)).toBe(4);
  });

  it('never raises itself from headers', async () => {
    const budget = createBudget({ limits: { publishingPublicPerMinute: 10 } });
    const key = budgetKeys.publishingPublic(base);
    await spend(budget, key, 9);
    await budget.observe(key, { limit: 10, remaining: 10 });
    expect((await budget.standing(key)).remaining).toBe(0);
  });

  it('blocks for Retry-After after an upstream 429', async () => {
    const budget = createBudget();
    const key = budgetKeys.lodging(base, 'acc', 'tok');
    await budget.observe(key, { rateLimited: true, retryAfterSeconds: 30, remaining: 0 });
    const res = await budget.take(key, 'write');
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.retryAfterSeconds).toBeGreaterThanOrEqual(29);
  });

  it('refills after the window, not before', async () => {
    // The in-memory limiter reads Date.now(): a fake clock stands in for a minute of waiting.
    vi.useFakeTimers();
    try {
      const budget = createBudget({ limits: { publishingPublicPerMinute: 2 } });
      const key = budgetKeys.publishingPublic(base);
      expect(await spend(budget, key, 5)).toBe(1);
      vi.advanceTimersByTime(59_000);
      expect(await spend(budget, key, 5)).toBe(0);
      vi.advanceTimersByTime(1_100);
      expect(await spend(budget, key, 5)).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
