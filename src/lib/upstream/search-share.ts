import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryAfterFromMs } from '../failures/wait.ts';
import { sharedLimiter } from './limiter.ts';

/** Uncached availability searches any address may make per window: what a guest choosing dates needs. */
export const LIGHT_SEARCHES = 2;

export interface SearchShareOptions {
  /** The lodging bucket's points per window. */
  capacity: number;
  /** Share of the bucket that addresses beyond their light searches spend together (`UPSTREAM_LODGING_SEARCH_SHARE`). */
  share: number;
  /** Window in seconds. */
  duration: number;
  keyPrefix: string;
  redisUrl?: string | undefined;
}

/** As the budget's `TakeResult` (./budget.ts, which imports this module). */
type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

/** Charges one availability search of `address` on the lodging bucket `bucket`. */
export type ChargeSearch = (bucket: string, address: string) => Promise<TakeResult>;

const refusal = (res: RateLimiterRes): TakeResult => ({
  ok: false,
  retryAfterSeconds: retryAfterFromMs(res.msBeforeNext),
});

/**
 * Availability searches, fair per address however many addresses search (issue 33): a flood from a
 * few addresses searching new dates must leave the lodging budget to the guests who come after it.
 *
 * - Every address has `LIGHT_SEARCHES` uncached searches a window of its own (a guest's dates; what
 *   guests ask again, or ask alike, is answered from the read cache and costs nothing).
 * - Searches beyond those ("heavy" ones) are drawn from one pool per bucket, `share` of it, whatever
 *   the number of addresses: four or forty flooding addresses together spend no more than one.
 * - Within the pool each heavy address may take its fair part, the pool divided by the number of
 *   heavy addresses seen this window, so one of them cannot take the pool alone from the others.
 *
 * Shared through Redis when `redisUrl` is set (every server counts together); a store failure
 * refuses no one (the budget itself and the upstream's 429 still hold).
 */
export function fairSearches(options: SearchShareOptions): ChargeSearch {
  const { duration, keyPrefix, redisUrl } = options;
  const pool = Math.max(1, Math.ceil(options.capacity * options.share));
  const make = (name: string, points: number): Promise<RateLimiterAbstract> =>
    sharedLimiter({ points, duration, keyPrefix: `${keyPrefix}:${name}` }, redisUrl);
  const light = make('search-light', LIGHT_SEARCHES);
  const heavy = make('search-heavy', pool);
  const pooled = make('search-pool', pool);
  // Counts heavy addresses: one point when an address first goes beyond its light searches.
  const seen = make('search-heavy-seen', 1_000_000);

  return async (bucket, address) => {
    const who = `${bucket}|${address}`;
    try {
      const res = await (await light).consume(who, 1);
      return { ok: true, remaining: res.remainingPoints };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) return { ok: true, remaining: 0 };
      try {
        const counter = await seen;
        const addresses =
          error.consumedPoints === LIGHT_SEARCHES + 1
            ? (await counter.consume(bucket, 1)).consumedPoints
            : ((await counter.get(bucket))?.consumedPoints ?? 1);
        const fair = Math.max(1, Math.floor(pool / Math.max(1, addresses)));
        const mine = await (await heavy).consume(who, 1);
        if (mine.consumedPoints > fair) return refusal(mine);
        await (await pooled).consume(bucket, 1);
        return { ok: true, remaining: 0 };
      } catch (refused) {
        return refused instanceof RateLimiterRes ? refusal(refused) : { ok: true, remaining: 0 };
      }
    }
  };
}
