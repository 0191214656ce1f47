import { randomUUID } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { createStorage } from 'unstorage';
import fsLiteDriver from 'unstorage/drivers/fs-lite';
import { z } from 'zod';
import { getRedis } from './redis.ts';

/**
 * A sliding log of calls: the time of every call of the last window, so "fewer than N calls in the
 * last window" holds for EVERY span of that length, not only for the spans a counter's fixed
 * windows happen to start at. This is what an upstream counting by sliding window checks, and a
 * fixed-window upstream never counts more than a sliding one, so the log is safe against both.
 *
 * Why not rate-limiter-flexible (which the per-visitor allowances still use): it counts in fixed
 * windows only. A fixed 60 s window lets 2N calls through in the 60 s around a window's end (N at
 * its close, N at the next one's start) - the 76 calls a minute against a budget of 54 of issue 35.
 * A token bucket made of short windows (N/k points per 60/k s, or `BurstyRateLimiter`) is only safe
 * with N/(k+1) points per short window, giving away a share of the budget, and neither can say
 * "readers may use N - R of the same count, writes all N", which the reserves below need. A log is
 * exact, knows when the next call fits (its oldest call leaving the window), and on Redis it is one
 * sorted set per bucket and one Lua script (atomic across servers, Redis' own clock).
 */

type LogTake = { ok: true; count: number } | { ok: false; count: number; waitMs: number };

interface LogStanding {
  /** Calls in the last window (padding included). */
  count: number;
  /** Milliseconds until the oldest of them leaves the window; 0 when the log is empty. */
  nextFreeMs: number;
}

export interface SlidingLog {
  /** Records a call when fewer than `ceiling` are in the window and the log is not shut. */
  take(key: string, ceiling: number): Promise<LogTake>;
  standing(key: string): Promise<LogStanding>;
  /**
   * Pads the log with calls stamped now until it holds `upTo`, and shuts it for `shutMs` whatever
   * its count: what the upstream counted that we did not send (another client, another server).
   */
  fill(key: string, upTo: number, shutMs: number): Promise<void>;
  /** Takes back the latest call: it never reached the upstream (no connection), which counted none. */
  refund(key: string): Promise<void>;
}

interface Entry {
  times: number[];
  shutUntil: number;
}

/** Milliseconds until a call fits under `ceiling` in a sorted log of `times`. */
function waitFor(times: readonly number[], ceiling: number, now: number, windowMs: number): number {
  if (ceiling <= 0) return windowMs;
  const leaving = times[times.length - ceiling];
  return leaving === undefined ? 0 : Math.max(1, leaving + windowMs - now);
}

/** What a log's file holds: each key's calls of the window and when it is shut until. */
const savedLog = z.record(
  z.string(),
  z.object({ times: z.array(z.number()).max(100_000), shutUntil: z.number() }),
);

/**
 * One process' log (no `REDIS_URL`, or the insurance while Redis is away). With `file` each call
 * is written there (unstorage, as the disk cache) before it is let through, so a restart inside a
 * window still counts the calls sent before it instead of spending a whole window's allowance again.
 */
export function memoryLog(
  windowMs: number,
  now: () => number = Date.now,
  file?: string,
): SlidingLog {
  let entries = new Map<string, Entry>();
  const store = file ? createStorage({ driver: fsLiteDriver({ base: dirname(file) }) }) : undefined;
  // What an earlier process left; none, or a damaged file, starts counting afresh.
  const name = basename(file ?? '');
  const loaded = store
    ? store
        .getItem(name)
        .then((saved) => void (entries = new Map(Object.entries(savedLog.parse(saved)))))
        .catch(() => undefined)
    : Promise.resolve();
  // One write at a time, of the whole log (its calls of the window); calls taken while one is
  // under way share the next.
  let queued: Promise<void> | undefined;
  let last = loaded;
  const write = async () => {
    queued = undefined;
    const since = now() - windowMs;
    const kept = [...entries].map(([k, e]) => [
      k,
      { times: e.times.filter((at) => at > since), shutUntil: e.shutUntil },
    ]);
    // Bookkeeping only: this process still counts in memory.
    await store?.setItem(name, Object.fromEntries(kept)).catch(() => undefined);
  };
  const save = async () => {
    if (store) await (queued ??= last = last.then(write));
  };
  const entry = (key: string, t: number): Entry => {
    const found = entries.get(key) ?? { times: [], shutUntil: 0 };
    entries.set(key, found);
    const first = found.times.findIndex((time) => time > t - windowMs);
    found.times.splice(0, first === -1 ? found.times.length : first);
    return found;
  };
  return {
    async take(key, ceiling) {
      await loaded;
      const t = now();
      const e = entry(key, t);
      const count = e.times.length;
      const wait = Math.max(
        e.shutUntil - t,
        count < ceiling ? 0 : waitFor(e.times, ceiling, t, windowMs),
      );
      if (wait > 0) return { ok: false, count, waitMs: wait };
      e.times.push(t);
      await save();
      return { ok: true, count: count + 1 };
    },
    async standing(key) {
      await loaded;
      const t = now();
      const e = entry(key, t);
      const oldest = e.times[0];
      return {
        count: e.times.length,
        nextFreeMs: Math.max(e.shutUntil - t, oldest === undefined ? 0 : oldest + windowMs - t),
      };
    },
    async fill(key, upTo, shutMs) {
      await loaded;
      const t = now();
      const e = entry(key, t);
      e.times.push(...Array.from({ length: Math.max(0, upTo - e.times.length) }, () => t));
      e.shutUntil = Math.max(e.shutUntil, t + shutMs);
      await save();
    },
    async refund(key) {
      await loaded;
      entries.get(key)?.times.pop();
      await save();
    },
  };
}

/**
 * KEYS: the log (a sorted set scored by call time in ms) and its shut marker.
 * ARGV: operation (`take`, `standing`, `fill`, `refund`), window ms, ceiling or fill target, a unique
 * member id, shut ms. Answers { taken 0/1, count, wait ms }.
 */
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if ARGV[1] == 'refund' then
  redis.call('ZPOPMAX', KEYS[1])
  return {0, 0, 0}
end
local count = redis.call('ZCARD', KEYS[1])
local shut = redis.call('PTTL', KEYS[2])
if shut < 0 then shut = 0 end
if ARGV[1] == 'fill' then
  for i = count + 1, n do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
  if count < n then redis.call('PEXPIRE', KEYS[1], window) end
  local ms = tonumber(ARGV[5])
  if ms > shut then redis.call('SET', KEYS[2], '1', 'PX', ms) end
  return {0, math.max(count, n), 0}
end
local wait = shut
if ARGV[1] == 'standing' then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if oldest[2] then wait = math.max(wait, tonumber(oldest[2]) + window - now) end
  return {0, count, wait}
end
if count >= n then
  if n <= 0 then
    wait = math.max(wait, window)
  else
    local leaving = redis.call('ZRANGE', KEYS[1], count - n, count - n, 'WITHSCORES')
    wait = math.max(wait, math.max(1, tonumber(leaving[2]) + window - now))
  end
end
if wait > 0 then return {0, count, wait} end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, count + 1, 0}
`;

type Answer = [taken: number, count: number, waitMs: number];

/**
 * The log shared by every server through Redis (one clock: Redis'), falling back to this
 * process' own log while Redis is away: each server then counts alone (its own calls of the
 * window included, which it keeps in both), and the upstream's 429s, which shut the log for
 * everyone once Redis is back, cap the rest.
 */
export function redisLog(redisUrl: string, windowMs: number, prefix: string): SlidingLog {
  const insurance = memoryLog(windowMs);
  const client = getRedis(redisUrl);
  const run = async (key: string, operation: string, n: number, shutMs = 0): Promise<Answer> => {
    const keys = [`${prefix}:${key}`, `${prefix}:${key}:shut`];
    const args = [operation, windowMs, n, randomUUID(), Math.ceil(shutMs)];
    // EVAL, not a defined command: Redis keeps the compiled script by its hash either way.
    return (await (await client).eval(SCRIPT, 2, ...keys, ...args)) as Answer;
  };
  return {
    take: (key, ceiling) =>
      run(key, 'take', ceiling).then(
        async ([taken, count, waitMs]): Promise<LogTake> => {
          if (taken !== 1) return { ok: false, count, waitMs };
          // Kept here too: this server's own calls still count while Redis is away or after it
          // comes back empty.
          const mine = await insurance.take(key, ceiling);
          return mine.ok ? { ok: true, count: Math.max(count, mine.count) } : mine;
        },
        () => insurance.take(key, ceiling),
      ),
    standing: (key) =>
      run(key, 'standing', 0).then(
        ([, count, nextFreeMs]) => ({ count, nextFreeMs }),
        () => insurance.standing(key),
      ),
    async fill(key, upTo, shutMs) {
      await insurance.fill(key, upTo, shutMs);
      // Kept in this process' log above when Redis is away.
      await run(key, 'fill', upTo, shutMs).catch(() => undefined);
    },
    async refund(key) {
      await insurance.refund(key);
      await run(key, 'refund', 0).catch(() => undefined);
    },
  };
}
