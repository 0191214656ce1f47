import { settingDefaults } from '../settings/schema.ts';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryAfterFromMs } from '../failures/wait.ts';
import { hashToken, originOf } from './identity.ts';
import { sharedLimiter } from './limiter.ts';

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
export type BudgetKind = 'publishing-public' | 'publishing-token' | 'lodging';

export interface BudgetKey {
  kind: BudgetKind;
  key: string;
}

export interface BudgetLimits {
  publishingPublicPerMinute: number;
  publishingTokenPerMinute: number;
  lodgingPerMinute: number;
}

/** The documented upstream limits. */
export const DEFAULT_LIMITS: BudgetLimits = {
  publishingPublicPerMinute: settingDefaults.PUBLISHING_PUBLIC_PER_MINUTE,
  publishingTokenPerMinute: settingDefaults.PUBLISHING_TOKEN_PER_MINUTE,
  lodgingPerMinute: settingDefaults.LODGING_PER_MINUTE,
};

export interface BudgetOptions {
  limits?: Partial<BudgetLimits>;
  /** Share of each limit we allow ourselves to spend (default 0.9): headroom for clock skew and other clients. */
  safetyRatio?: number;
  windowSeconds?: number;
  /** Shared counters across instances; in-memory when absent. */
  redisUrl?: string | undefined;
  keyPrefix?: string;
}

export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

/** What an upstream response said about our standing. */
export interface RateInfo {
  limit?: number | undefined;
  remaining?: number | undefined;
  retryAfterSeconds?: number | undefined;
  /** Unix seconds at which the upstream window resets. */
  resetAt?: number | undefined;
}

export interface Budget {
  readonly limits: BudgetLimits;
  /** Spends one request; `ok: false` means do not send (fail fast or serve stale). */
  take(key: BudgetKey): Promise<TakeResult>;
  /** Self-correction from response headers: only ever lowers what we think is left. */
  observe(key: BudgetKey, info: RateInfo): Promise<void>;
  /** Requests we may still send in the current window. */
  remaining(key: BudgetKey): Promise<number>;
  /** Requests left and seconds until the window resets. */
  standing(key: BudgetKey): Promise<{ remaining: number; resetSeconds: number }>;
  /** Requests we allow ourselves per window in a bucket of this kind. */
  capacity(kind: BudgetKind): number;
}

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

function limitFor(limits: BudgetLimits, kind: BudgetKind): number {
  if (kind === 'publishing-public') return limits.publishingPublicPerMinute;
  if (kind === 'publishing-token') return limits.publishingTokenPerMinute;
  return limits.lodgingPerMinute;
}

export function createBudget(options: BudgetOptions = {}): Budget {
  const limits: BudgetLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const ratio = options.safetyRatio ?? settingDefaults.UPSTREAM_BUDGET_RATIO;
  const duration = options.windowSeconds ?? 60;
  const prefix = options.keyPrefix ?? 'masthead:budget';
  const limiters = new Map<BudgetKind, Promise<RateLimiterAbstract>>();

  const pointsFor = (kind: BudgetKind): number =>
    Math.max(1, Math.floor(limitFor(limits, kind) * ratio));

  const limiter = (kind: BudgetKind): Promise<RateLimiterAbstract> => {
    let found = limiters.get(kind);
    if (!found) {
      found = sharedLimiter(
        { points: pointsFor(kind), duration, keyPrefix: `${prefix}:${kind}` },
        options.redisUrl,
      );
      limiters.set(kind, found);
    }
    return found;
  };

  const standing = async (key: BudgetKey) => {
    const res = await (await limiter(key.kind)).get(key.key);
    return res
      ? {
          remaining: res.remainingPoints,
          resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        }
      : { remaining: pointsFor(key.kind), resetSeconds: duration };
  };
  const remaining = async (key: BudgetKey): Promise<number> => (await standing(key)).remaining;

  /** Self-correction from response headers (see `Budget.observe`). */
  const observeOn = async (key: BudgetKey, info: RateInfo): Promise<void> => {
    const rl = await limiter(key.kind);
    const now = Date.now() / 1000;
    if (info.retryAfterSeconds !== undefined && info.retryAfterSeconds > 0) {
      await rl.block(key.key, Math.ceil(info.retryAfterSeconds));
      return;
    }
    if (info.remaining === undefined) return;
    const upstreamLimit = info.limit ?? limitFor(limits, key.kind);
    // Keep the same headroom on what the upstream says is left.
    const reserve = upstreamLimit - Math.floor(upstreamLimit * ratio);
    const allowed = Math.max(0, info.remaining - reserve);
    const current = await rl.get(key.key);
    const ours = current ? current.remainingPoints : pointsFor(key.kind);
    if (allowed >= ours) return;
    const points = pointsFor(key.kind);
    const consumed = points - allowed;
    // Align our window with the upstream's when it tells us when it resets.
    const seconds =
      info.resetAt !== undefined && info.resetAt > now
        ? Math.ceil(info.resetAt - now)
        : current
          ? Math.max(1, Math.ceil(current.msBeforeNext / 1000))
          : duration;
    await rl.set(key.key, consumed, seconds);
  };

  return {
    limits,
    take: (key) => consumeOne(limiter(key.kind), key.key),
    async observe(key, info) {
      try {
        await observeOn(key, info);
      } catch {
        // Bookkeeping only: a store failure must never turn an answered request into an error.
      }
    },
    remaining,
    standing,
    capacity: pointsFor,
  };
}

export interface AllowanceOptions {
  /** Share of a shared bucket one visitor may spend per window (default 0.25). */
  visitorShare?: number | undefined;
  /** Share of a shared bucket crawlers must leave to humans (default 0.3). */
  humanReserve?: number | undefined;
  /** Share of a lodging bucket one visitor's searches may spend per window (default 0.1). */
  lodgingSearchShare?: number | undefined;
  /** Share of a lodging bucket searches must leave to the booking step (default 0.3). */
  bookingReserve?: number | undefined;
  windowSeconds?: number | undefined;
  redisUrl?: string | undefined;
  keyPrefix?: string | undefined;
}

/**
 * Per-visitor allowances on the shared buckets, charged before the shared budget: one address (or
 * one crawler, whatever its addresses) may spend at most `visitorShare` of a publishing bucket per
 * window, and crawlers stop while less than `humanReserve` of it is left, so humans' pages keep
 * priority. On a lodging bucket one visitor's searches may spend `lodgingSearchShare`, and searches
 * stop while less than `bookingReserve` is left: a guest who has chosen a room can always book.
 * Booking-step calls (guest records, the booking) may use that reserve, within `visitorShare` each.
 */
export interface VisitorAllowance {
  readonly visitorShare: number;
  readonly humanReserve: number;
  charge(key: BudgetKey, visitor: ChargedVisitor): Promise<TakeResult>;
}

export interface ChargedVisitor {
  visitor: string;
  crawler: boolean;
  /** A call of the booking step (see `asBookingStep` in visitor.ts), not a search. */
  bookingStep?: boolean | undefined;
}

export const DEFAULT_VISITOR_SHARE = settingDefaults.UPSTREAM_VISITOR_SHARE;
export const DEFAULT_HUMAN_RESERVE = settingDefaults.UPSTREAM_HUMAN_RESERVE;
export const DEFAULT_LODGING_SEARCH_SHARE = settingDefaults.UPSTREAM_LODGING_SEARCH_SHARE;
export const DEFAULT_BOOKING_RESERVE = settingDefaults.UPSTREAM_BOOKING_RESERVE;

export function createVisitorAllowance(
  budget: Budget,
  options: AllowanceOptions = {},
): VisitorAllowance {
  const visitorShare = options.visitorShare ?? DEFAULT_VISITOR_SHARE;
  const humanReserve = options.humanReserve ?? DEFAULT_HUMAN_RESERVE;
  const searchShare = options.lodgingSearchShare ?? DEFAULT_LODGING_SEARCH_SHARE;
  const bookingReserve = options.bookingReserve ?? DEFAULT_BOOKING_RESERVE;
  const duration = options.windowSeconds ?? 60;
  const prefix = options.keyPrefix ?? 'masthead:allowance';
  const limiters = new Map<string, Promise<RateLimiterAbstract>>();

  /** One visitor's share of a bucket of `kind`, named `name` (lodging searches have their own). */
  const limiter = (kind: BudgetKind, name: string, share: number): Promise<RateLimiterAbstract> => {
    let found = limiters.get(name);
    if (!found) {
      const points = Math.max(1, Math.ceil(budget.capacity(kind) * share));
      found = sharedLimiter({ points, duration, keyPrefix: `${prefix}:${name}` }, options.redisUrl);
      limiters.set(name, found);
    }
    return found;
  };

  /** Refused while no more than `share` of the shared bucket is left (a store failure refuses no one). */
  const keepReserve = async (key: BudgetKey, share: number): Promise<TakeResult | undefined> => {
    const shared = await budget.standing(key).catch(() => null);
    const reserve = Math.ceil(budget.capacity(key.kind) * share);
    return shared && shared.remaining <= reserve
      ? { ok: false, retryAfterSeconds: shared.resetSeconds }
      : undefined;
  };

  return {
    visitorShare,
    humanReserve,
    async charge(key, visitor) {
      const who = `${key.key}|${visitor.visitor}`;
      if (key.kind === 'lodging') {
        if (visitor.bookingStep) {
          return consumeOne(limiter('lodging', 'lodging-booking', visitorShare), who);
        }
        const refused = await keepReserve(key, bookingReserve);
        return refused ?? consumeOne(limiter('lodging', 'lodging', searchShare), who);
      }
      if (visitor.crawler) {
        const refused = await keepReserve(key, humanReserve);
        if (refused) return refused;
      }
      return consumeOne(limiter(key.kind, key.kind, visitorShare), who);
    },
  };
}

/**
 * One point from a limiter: refused with its wait when spent. When the store itself fails the
 * request goes ahead: the upstream still protects itself with 429, which is then honoured.
 */
async function consumeOne(limiter: Promise<RateLimiterAbstract>, key: string): Promise<TakeResult> {
  try {
    const res = await (await limiter).consume(key, 1);
    return { ok: true, remaining: res.remainingPoints };
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      return { ok: false, retryAfterSeconds: retryAfterFromMs(error.msBeforeNext) };
    }
    return { ok: true, remaining: 0 };
  }
}
