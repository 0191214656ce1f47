import { describe, expect, it } from 'vitest';
import { postChanges, seenBefore } from '../../../src/lib/freshness/changes.ts';
import type { SeenPost } from '../../../src/lib/freshness/changes.ts';
import { firstLookMs, retryMs, watchIntervalMs } from '../../../src/lib/freshness/pace.ts';

const post = (id: number, minute: number, updated = minute): SeenPost => ({
  id,
  slug: `post-${id}`,
  publishedAt: `2026-11-24T08:${String(minute).padStart(2, '0')}:00Z`,
  updatedAt: `2026-11-24T09:${String(updated).padStart(2, '0')}:00Z`,
});

describe('postChanges', () => {
  const before = [post(3, 30), post(2, 20), post(1, 10)];

  it('sees nothing on the first look', () => {
    expect(postChanges(undefined, before, 3)).toEqual([]);
  });

  it('finds a new post, and not the one it pushed out of the window', () => {
    const changes = postChanges(before, [post(4, 40), post(3, 30), post(2, 20)], 3);
    expect(changes.map((change) => [change.kind, change.slug])).toEqual([['new', 'post-4']]);
  });

  it('finds an edited post by its updated_at', () => {
    const changes = postChanges(before, [post(3, 30), post(2, 20, 55), post(1, 10)], 3);
    expect(changes.map((change) => [change.kind, change.slug])).toEqual([['changed', 'post-2']]);
  });

  it('finds a post unpublished from inside the window', () => {
    const changes = postChanges(before, [post(3, 30), post(1, 10), post(0, 5)], 3);
    expect(changes.map((change) => [change.kind, change.slug])).toEqual([['vanished', 'post-2']]);
  });

  it('finds a post unpublished when the window is not full', () => {
    const changes = postChanges(before, [post(2, 20), post(1, 10)], 5);
    expect(changes.map((change) => [change.kind, change.slug])).toEqual([['vanished', 'post-3']]);
  });
});

describe('the first look after a start', () => {
  it('takes a post published between the start and the (jittered) first look for a change', () => {
    const start = Date.parse('2026-11-24T09:35:00Z');
    const current = [post(4, 40), post(3, 30), post(2, 20)];
    const changes = postChanges(seenBefore(current, start), current, 3);
    // post 4 came at 09:40, after the start; posts 2 and 3 were as they are before it.
    expect(changes.map((change) => [change.kind, change.slug])).toEqual([['new', 'post-4']]);
  });

  it('sees nothing when nothing moved since the start', () => {
    const current = [post(3, 30), post(2, 20)];
    expect(
      postChanges(seenBefore(current, Date.parse('2026-11-24T10:00:00Z')), current, 3),
    ).toEqual([]);
  });
});

describe('watchIntervalMs', () => {
  it('costs at most 4 calls a minute per tenant', () => {
    expect(watchIntervalMs({ capacityPerMinute: 216, tenantsSharing: 1, remaining: 216 })).toBe(
      15_000,
    );
  });

  it('shares a bucket among the tenants that spend it', () => {
    // 54 calls a minute, a quarter for watchers, 6 tenants: 2.25 a minute each.
    expect(watchIntervalMs({ capacityPerMinute: 54, tenantsSharing: 6, remaining: 54 })).toBe(
      26_667,
    );
  });

  it('backs off while the budget is low, and recovers', () => {
    const low = { capacityPerMinute: 54, tenantsSharing: 3, remaining: 5 };
    const first = watchIntervalMs({ ...low, lastMs: 15_000 });
    expect(first).toBe(30_000);
    expect(watchIntervalMs({ ...low, lastMs: first })).toBe(60_000);
    expect(watchIntervalMs({ ...low, lastMs: 200_000 })).toBe(300_000);
    expect(watchIntervalMs({ ...low, remaining: 50, lastMs: 300_000 })).toBe(15_000);
  });

  it("keeps fifty tenants on one anonymous bucket within the watchers' share", () => {
    // 54 a minute, a quarter for watchers: 13.5 among 50 tenants, one look each every 222 s.
    const interval = watchIntervalMs({ capacityPerMinute: 54, tenantsSharing: 50, remaining: 54 });
    expect(interval).toBe(222_223);
    expect((50 * 60_000) / interval).toBeLessThanOrEqual(54 * 0.25);
  });

  it('spreads the first looks over the first interval', () => {
    const starts = Array.from({ length: 50 }, (_, i) => firstLookMs(200_000, () => i / 50));
    expect(Math.min(...starts)).toBe(0);
    expect(Math.max(...starts)).toBeLessThan(200_000);
    // No two in the same second: a start no longer spends the budget at once.
    expect(new Set(starts.map((ms) => Math.floor(ms / 1000))).size).toBe(50);
  });

  it('comes back when the budget frees a call after a refusal, jittered', () => {
    expect(retryMs(7, () => 0)).toBe(7000);
    expect(retryMs(7, () => 0.999)).toBe(7999);
  });
});
