import { memo } from '../memo.ts';
import { settingDefaults } from '../settings/schema.ts';
import type { Settings } from '../settings/schema.ts';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryAfterFromMs } from '../failures/wait.ts';
import { hashToken } from './cache.ts';
import { sharedLimiter } from './redis.ts';
import type { VisitorContext } from './visitor.ts';
import { memoryLog, redisLog } from './sliding-log.ts';
import type { SlidingLog } from './sliding-log.ts';

/**
 * Our share of the upstream rate limits, spent before a request is sent so the upstream never has
 * to answer 429. One bucket per identity the upstream counts:
 *
 * - `publishing-public`: anonymous publishing reads. The upstream counts them per client IP, and
 *   every tenant of this server reaches it from the same IP, so the bucket is keyed by upstream
 *   origin, NOT by tenant: 60/min shared by all tenants of one server (and all instances when Redis
 *   is configured, since instances behind one NAT share the IP too).
 * - `publishing-token`: 240/min per bearer token (keyed by tenant + token hash).
 * - `lodging`: 60/min per token (keyed by account + token hash).
 */
type BudgetKind = 'publishing-public' | 'publishing-token' | 'lodging';

export interface BudgetKey {
  kind: BudgetKind;
  key: string;
}

/** The upstream limits as the settings give them. */
export const limitsFrom = (given: Settings) => ({
  publishingPublicPerMinute: given.PUBLISHING_PUBLIC_PER_MINUTE,
  publishingTokenPerMinute: given.PUBLISHING_TOKEN_PER_MINUTE,
  lodgingPerMinute: given.LODGING_PER_MINUTE,
});
/** The documented upstream limits. */
export const DEFAULT_LIMITS = limitsFrom(settingDefaults);
export type BudgetLimits = typeof DEFAULT_LIMITS;

/**
 * Who spends a call, from first to last claim on a bucket:
 * - `write`: sign-ins, comments, the booking step: may use the whole budget;
 * - `read`: pages: leave the write reserve (`writeReserve`) untouched;
 * - `background`: the change watchers: spend only while readers still have `backgroundHeadroom`
 *   of the budget left beyond the write reserve, so a watcher never takes a reader's call.
 */
export type Priority = 'write' | 'read' | 'background';

export interface BudgetOptions {
  limits?: Partial<BudgetLimits> | undefined;
  /** Share of each limit we allow ourselves to spend (default `UPSTREAM_BUDGET_RATIO`): headroom for clock skew and other clients. */
  safetyRatio?: number | undefined;
  /** The upstream's window (default 60 s; tests and benches scale it down with the limits). */
  windowSeconds?: number | undefined;
  /** Share of a publishing bucket pages leave to sign-ins and comments (default `UPSTREAM_WRITE_RESERVE`). */
  writeReserve?: number | undefined;
  /** Share of the lodging bucket searches leave to the booking step (default `UPSTREAM_BOOKING_RESERVE`). */
  bookingReserve?: number | undefined;
  /** Share of each bucket the watchers leave to readers beyond the write reserve (default 0.1). */
  backgroundHeadroom?: number | undefined;
  /** Shared counters across instances; in-memory when absent. */
  redisUrl?: string | undefined;
  /** Without Redis: the file the counts are kept in across restarts (memory only when absent). */
  logFile?: string | undefined;
  keyPrefix?: string;
  /** The in-memory log's clock (tests); with Redis, Redis' clock counts. */
  now?: () => number;
}

type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };
/** A visitor's charge: `refund` gives the point back when no call went out after all. */
type Charge =
  { ok: true; refund: () => Promise<unknown> } | { ok: false; retryAfterSeconds: number };
/** What a store failure answers: the request goes ahead (the budget and the upstream's 429 hold). */
const unmetered: Charge = { ok: true, refund: () => Promise.resolve() };

/** What an upstream response said about our standing. */
export interface RateInfo {
  /** The answer was a 429: the upstream counted a full window. */
  rateLimited?: boolean | undefined;
  limit?: number | undefined;
  remaining?: number | undefined;
  retryAfterSeconds?: number | undefined;
}

/** What the clients spend through; the reserve arithmetic (`ceiling`) stays inside the budget. */
export type Budget = Omit<ReturnType<typeof createBudget>, 'ceiling'>;

/** The upstream counts anonymous calls per IP, i.e. per origin (scheme://host:port) from our side. */
const originOf = (baseUrl: string): string => new URL(baseUrl).origin;

export const budgetKeys = {
  publishingPublic(baseUrl: string): BudgetKey {
    return { kind: 'publishing-public', key: originOf(baseUrl) };
  },
  publishingToken(baseUrl: string, tenantId: string, token: string): BudgetKey {
    return {
      kind: 'publishing-token',
      key: `${originOf(baseUrl)}|${tenantId}|${hashToken(token)}`,
    };
  },
  lodging(baseUrl: string, accountKey: string, token: string | undefined): BudgetKey {
    // Login calls carry no token: they share the account's anonymous bucket.
    const who = token === undefined ? 'anonymous' : hashToken(token);
    return { kind: 'lodging', key: `${originOf(baseUrl)}|${accountKey}|${who}` };
  },
};

/** A kind's limit per window, as the limits name it (the budget and the build's pacer read it here). */
export function limitFor(limits: BudgetLimits, kind: BudgetKind): number {
  if (kind === 'publishing-public') return limits.publishingPublicPerMinute;
  if (kind === 'publishing-token') return limits.publishingTokenPerMinute;
  return limits.lodgingPerMinute;
}

/**
 * Each bucket is a sliding log (./sliding-log.ts): at most `capacity` calls in ANY window-long
 * span, against upstreams that count by fixed or by sliding window alike.
 *
 * A 429 means the upstream counted a full window, whatever our log says (another client behind the
 * same address, a server that counted alone while Redis was away). With `Retry-After` the log is
 * shut that long and no longer: the upstream said when it takes calls again (a 429 with
 * `Retry-After: 7` is "busy" for 7 s, not a minute); our own calls still count in the log after it.
 * Without it (the contracts do not promise the header) the log is padded to full capacity with
 * calls stamped now: nothing is sent before the oldest logged call is 60 s old, then one call per
 * call leaving the window, never a fresh burst, until the padding ages out 60 s after the 429.
 */
export function createBudget(options: BudgetOptions = {}) {
  const limits: BudgetLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const ratio = options.safetyRatio ?? settingDefaults.UPSTREAM_BUDGET_RATIO;
  const windowMs = (options.windowSeconds ?? 60) * 1000;
  const prefix = options.keyPrefix ?? 'masthead:budget';
  const headroom = options.backgroundHeadroom ?? 0.1;
  // Only writes may spend these shares of a bucket; readers stop at the rest.
  const writeReserve = options.writeReserve ?? settingDefaults.UPSTREAM_WRITE_RESERVE;
  const reserves: Record<BudgetKind, number> = {
    'publishing-public': writeReserve,
    'publishing-token': writeReserve,
    lodging: options.bookingReserve ?? settingDefaults.UPSTREAM_BOOKING_RESERVE,
  };
  const log: SlidingLog = options.redisUrl
    ? redisLog(options.redisUrl, windowMs, prefix)
    : memoryLog(windowMs, options.now, options.logFile);

  const pointsFor = (kind: BudgetKind): number =>
    Math.max(1, Math.floor(limitFor(limits, kind) * ratio));
  const ceiling = (kind: BudgetKind, priority: Priority): number => {
    const points = pointsFor(kind);
    if (priority === 'write') return points;
    // Readers always keep one call, whatever the reserve; watchers may be left none.
    const read = Math.max(1, points - Math.ceil(points * reserves[kind]));
    if (priority === 'read') return read;
    return Math.max(0, read - Math.ceil(points * headroom));
  };
  const id = (key: BudgetKey) => `${key.kind}:${key.key}`;

  const standing = async (key: BudgetKey) => {
    const now = await log.standing(id(key));
    return {
      remaining: Math.max(0, pointsFor(key.kind) - now.count),
      resetSeconds: Math.max(1, Math.ceil((now.nextFreeMs || windowMs) / 1000)),
    };
  };

  /** Self-correction from response headers: only ever lowers what we think is left. */
  const observeOn = async (key: BudgetKey, info: RateInfo): Promise<void> => {
    const points = pointsFor(key.kind);
    if (info.rateLimited) {
      // The upstream says when it takes calls again; without a word, a full window of padding.
      const wait = info.retryAfterSeconds;
      await log.fill(id(key), wait === undefined ? points : 0, (wait ?? 0) * 1000);
      return;
    }
    if (info.remaining === undefined) return;
    const upstreamLimit = info.limit ?? limitFor(limits, key.kind);
    // Keep the same headroom on what the upstream says is left.
    const reserve = upstreamLimit - Math.floor(upstreamLimit * ratio);
    const allowed = Math.max(0, info.remaining - reserve);
    const ours = (await standing(key)).remaining;
    if (allowed >= ours) return;
    // The calls we did not see count as sent now: they leave our window no earlier than theirs.
    await log.fill(id(key), points - allowed, 0);
  };

  return {
    limits,
    /** The window the limits count in (60 s; tests scale it down). */
    windowSeconds: windowMs / 1000,
    /**
     * Spends one request; `ok: false` means do not send (fail fast or serve stale). Never more
     * than `capacity` in any window-long span, whenever the calls fall.
     */
    async take(key: BudgetKey, priority: Priority = 'read'): Promise<TakeResult> {
      const res = await log.take(id(key), ceiling(key.kind, priority)).catch(() => undefined);
      // When the store itself fails the request goes ahead: the upstream's 429 caps the rest.
      if (!res) return { ok: true, remaining: 0 };
      return res.ok
        ? { ok: true, remaining: Math.max(0, pointsFor(key.kind) - res.count) }
        : { ok: false, retryAfterSeconds: retryAfterFromMs(res.waitMs) };
    },
    /** Gives back a call `take` spent that never reached the upstream (no connection). */
    refund: (key: BudgetKey) => log.refund(id(key)).catch(() => undefined),
    // Bookkeeping only: a store failure must never turn an answered request into an error.
    observe: (key: BudgetKey, info: RateInfo) => observeOn(key, info).catch(() => undefined),
    /** Requests left this window (write priority) and seconds until its oldest call leaves it. */
    standing,
    /** Requests we allow ourselves per window in a bucket of this kind. */
    capacity: pointsFor,
    /** Of those, how many calls of `priority` may be in one window. */
    ceiling,
  };
}

export interface AllowanceOptions {
  /** Share of a shared bucket one visitor may spend per window (default `UPSTREAM_VISITOR_SHARE`). */
  visitorShare?: number | undefined;
  /** Share of a shared bucket crawlers must leave to humans (default `UPSTREAM_HUMAN_RESERVE`). */
  humanReserve?: number | undefined;
  /** Share of a lodging bucket one visitor's searches may spend per window (default `UPSTREAM_LODGING_SEARCH_SHARE`). */
  lodgingSearchShare?: number | undefined;
  windowSeconds?: number | undefined;
  redisUrl?: string | undefined;
}

/**
 * Per-visitor allowances on the shared buckets, charged before the shared budget (and refunded
 * when it refuses, so a visitor spends its share on calls sent only): one address (or
 * one crawler, whatever its addresses) may spend at most `visitorShare` of a publishing bucket per
 * window, and crawlers stop while less than `humanReserve` of it is left, so humans' pages keep
 * priority. On a lodging bucket one visitor's searches may spend `lodgingSearchShare`; the booking
 * step's calls (guest records, the booking) have their own share, `visitorShare` each, and spend at
 * write priority, so the budget's write reserve (`UPSTREAM_BOOKING_RESERVE`) keeps them bookable.
 */
export type VisitorAllowance = ReturnType<typeof createVisitorAllowance>;

export function createVisitorAllowance(budget: Budget, options: AllowanceOptions = {}) {
  const visitorShare = options.visitorShare ?? settingDefaults.UPSTREAM_VISITOR_SHARE;
  const humanReserve = options.humanReserve ?? settingDefaults.UPSTREAM_HUMAN_RESERVE;
  const searchShare = options.lodgingSearchShare ?? settingDefaults.UPSTREAM_LODGING_SEARCH_SHARE;
  const duration = options.windowSeconds ?? 60;
  const prefix = 'masthead:allowance';
  let searches: ReturnType<typeof fairSearches> | undefined;
  /** One visitor's share of a bucket of `kind`, named `name` (three names: never evicted). */
  const limiter = memo(
    (name: string, kind: BudgetKind, share: number): Promise<RateLimiterAbstract> => {
      const points = Math.max(1, Math.ceil(budget.capacity(kind) * share));
      return sharedLimiter({ points, duration, keyPrefix: `${prefix}:${name}` }, options.redisUrl);
    },
    { max: 8 },
  );

  return {
    visitorShare,
    async charge(key: BudgetKey, visitor: VisitorContext & { visitor: string }): Promise<Charge> {
      const who = `${key.key}|${visitor.visitor}`;
      if (key.kind === 'lodging') {
        if (visitor.bookingStep) {
          return consumeOne(limiter('lodging-booking', 'lodging', visitorShare), who);
        }
        // Fair per address however many search (`fairSearches`).
        searches ??= fairSearches({
          capacity: budget.capacity('lodging'),
          share: searchShare,
          duration,
          keyPrefix: prefix,
          redisUrl: options.redisUrl,
        });
        return searches(key.key, visitor.visitor);
      }
      // Crawlers are refused while no more than `humanReserve` of the shared bucket is left (a
      // store failure refuses no one).
      const shared = visitor.crawler ? await budget.standing(key).catch(() => null) : null;
      if (shared && shared.remaining <= Math.ceil(budget.capacity(key.kind) * humanReserve))
        return { ok: false, retryAfterSeconds: shared.resetSeconds };
      return consumeOne(limiter(key.kind, key.kind, visitorShare), who);
    },
  };
}

const refusal = (res: RateLimiterRes): Charge => ({
  ok: false,
  retryAfterSeconds: retryAfterFromMs(res.msBeforeNext),
});

/**
 * One point from a limiter: refused with its wait when spent. When the store itself fails the
 * request goes ahead: the upstream still protects itself with 429, which is then honoured.
 */
async function consumeOne(limiter: Promise<RateLimiterAbstract>, key: string): Promise<Charge> {
  try {
    const points = await limiter;
    await points.consume(key, 1);
    return { ok: true, refund: () => points.reward(key, 1) };
  } catch (error) {
    return error instanceof RateLimiterRes ? refusal(error) : unmetered;
  }
}

/** Uncached availability searches any address may make per window: what a guest choosing dates needs. */
export const LIGHT_SEARCHES = 2;

interface SearchShareOptions {
  /** The lodging bucket's points per window. */
  capacity: number;
  /** Share of the bucket that addresses beyond their light searches spend together (`UPSTREAM_LODGING_SEARCH_SHARE`). */
  share: number;
  /** Window in seconds. */
  duration: number;
  keyPrefix: string;
  redisUrl?: string | undefined;
}

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
 * refuses no one (the budget itself and the upstream's 429 still hold). The function returned
 * charges one availability search of `address` on the lodging bucket `bucket`.
 */
export function fairSearches(
  options: SearchShareOptions,
): (bucket: string, address: string) => Promise<Charge> {
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
      await (await light).consume(who, 1);
      return { ok: true, refund: async () => (await light).reward(who, 1) };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) return unmetered;
      try {
        const counter = await seen;
        const addresses =
          error.consumedPoints === LIGHT_SEARCHES + 1
            ? (await counter.consume(bucket, 1)).consumedPoints
            : ((await counter.get(bucket))?.consumedPoints ?? 1);
        const fair = Math.max(1, Math.floor(pool / Math.max(1, addresses)));
        const mine = await (await heavy).consume(who, 1);
        if (mine.consumedPoints > fair) return refusal(mine);
        const refund = async () =>
          Promise.all([(await heavy).reward(who, 1), (await pooled).reward(bucket, 1)]);
        // Refused by the spent pool, the address keeps its fair part for when the pool has room
        // (and the pool does not count the refusal).
        await (await pooled).consume(bucket, 1).catch(async (spent: unknown) => {
          await refund();
          throw spent;
        });
        return { ok: true, refund };
      } catch (refused) {
        return refused instanceof RateLimiterRes ? refusal(refused) : unmetered;
      }
    }
  };
}
