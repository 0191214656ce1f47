import { describe, expect, it } from 'vitest';
import { fairSearches, LIGHT_SEARCHES } from '../../../src/lib/upstream/budget.ts';

/** A fresh share (in memory) on a bucket of 60 a minute, a tenth of it for heavy searchers. */
const share = () =>
  fairSearches({ capacity: 60, share: 0.1, duration: 60, keyPrefix: `test:${Math.random()}` });

/** How many of `tries` searches from each address go through, per address. */
async function allowed(
  charge: ReturnType<typeof share>,
  addresses: string[],
  tries: number,
): Promise<number[]> {
  const counts = addresses.map(() => 0);
  for (let i = 0; i < tries; i += 1) {
    for (const [n, address] of addresses.entries()) {
      if ((await charge('lodging-bucket', address)).ok) counts[n]! += 1;
    }
  }
  return counts;
}

const addresses = (n: number) => Array.from({ length: n }, (_, i) => `ip:203.0.113.${i + 1}`);
const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

describe('availability searches: fair per address however many addresses search', () => {
  it('one address: its light searches and the whole heavy pool (6 of 60)', async () => {
    expect(await allowed(share(), addresses(1), 30)).toEqual([LIGHT_SEARCHES + 6]);
  });

  it('four or forty flooding addresses spend no more than their light searches and one pool', async () => {
    for (const n of [4, 40]) {
      const counts = await allowed(share(), addresses(n), 30);
      // Every address had its light searches; all the rest came from the one pool.
      for (const count of counts) expect(count).toBeGreaterThanOrEqual(LIGHT_SEARCHES);
      expect(sum(counts)).toBeGreaterThan(n * LIGHT_SEARCHES);
      expect(sum(counts)).toBeLessThanOrEqual(n * LIGHT_SEARCHES + 6);
    }
  });

  it('the pool is split among the heavy addresses seen, none takes it alone', async () => {
    const counts = await allowed(share(), addresses(3), 30);
    // 6 heavy searches for 3 heavy addresses: 2 each, beyond their light ones.
    expect(counts).toEqual([4, 4, 4]);
  });

  it('a guest who comes after the flood still has its own searches', async () => {
    const charge = share();
    // Three flooding addresses spend the whole pool (2 each beyond their light searches).
    expect(sum(await allowed(charge, addresses(3), 30))).toBe(3 * LIGHT_SEARCHES + 6);
    const guest = await charge('lodging-bucket', 'ip:198.51.100.7');
    expect(guest.ok).toBe(true);
    expect((await charge('lodging-bucket', 'ip:198.51.100.7')).ok).toBe(true);
    // A third uncached search draws on the spent pool: refused, with when to try again.
    const third = await charge('lodging-bucket', 'ip:198.51.100.7');
    expect(third.ok).toBe(false);
    if (!third.ok) expect(third.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('a guest refused while the pool is spent keeps its fair part for when the pool has room', async () => {
    const charge = share();
    const flood = 'ip:203.0.113.1';
    const guest = 'ip:198.51.100.7';
    // One flooding address takes the whole pool (6), beyond its light searches.
    expect(await allowed(charge, [flood], LIGHT_SEARCHES + 5)).toEqual([LIGHT_SEARCHES + 5]);
    const last = await charge('lodging-bucket', flood);
    if (!last.ok) throw new Error('the pool had room for a sixth search');
    // The guest's searches beyond its light ones are refused: the pool is spent.
    expect(await allowed(charge, [guest], 10)).toEqual([LIGHT_SEARCHES]);
    // The flood's last search never went out (the shared budget refused it): the pool has room.
    await last.refund();
    // The guest's refused searches took nothing: its fair part (3 of 6) is whole.
    expect(await allowed(charge, [guest], 3)).toEqual([1]);
  });
});
