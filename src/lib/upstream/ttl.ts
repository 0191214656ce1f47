/**
 * How long each resource stays in the read cache, in seconds. The one place to tune freshness.
 * `keep` (two days for content, minutes for searches and per-user reads) with the per-tenant entry
 * cap (`boundedRedisDriver`) bounds Redis; a remembered 404 lasts `UPSTREAM_NOT_FOUND_SECONDS`.
 */
export interface CachePolicy {
  /** Served from cache without asking upstream. */
  fresh: number;
  /** After `fresh`, still served immediately while one background refresh runs. */
  stale: number;
  /**
   * After `fresh + stale`, served only when the upstream is down, 5xx, 429 or our budget is empty
   * (stale-if-error); otherwise a normal miss.
   */
  errorGrace: number;
  /**
   * How long the store (Redis, or the disk without it) keeps the value, to be served when the
   * budget is spent; at least `fresh + stale + errorGrace`, which it is when absent.
   */
  keep?: number;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const TTL = {
  // Publishing: public content changes a few times an hour; an outage page is worse than old news.
  postList: { fresh: 60, stale: 10 * MINUTE, errorGrace: DAY, keep: 2 * DAY },
  // Search: any query text a stranger sends is a key; kept minutes, not days.
  search: { fresh: 60, stale: 5 * MINUTE, errorGrace: 5 * MINUTE, keep: 15 * MINUTE },
  // A published post rarely changes; new posts surface through the (shorter) lists.
  post: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  categoryList: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  category: { fresh: 2 * MINUTE, stale: 30 * MINUTE, errorGrace: DAY, keep: 2 * DAY },
  tagList: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  tag: { fresh: 2 * MINUTE, stale: 30 * MINUTE, errorGrace: DAY, keep: 2 * DAY },
  planList: { fresh: 10 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  plan: { fresh: 10 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  editionList: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  edition: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  // Live status flips; keep streams short.
  streamList: { fresh: 20, stale: 2 * MINUTE, errorGrace: HOUR },
  stream: { fresh: 20, stale: 2 * MINUTE, errorGrace: HOUR },
  // After posting, the page reads with `{ fresh: true }`, so others can wait a minute.
  comments: { fresh: 60, stale: 10 * MINUTE, errorGrace: HOUR },
  // Per user (token hash in the key): short, so a role or subscription change shows quickly.
  me: { fresh: 30, stale: 60, errorGrace: 5 * MINUTE },
  // Lodging (always per token).
  propertyList: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  property: { fresh: 5 * MINUTE, stale: HOUR, errorGrace: DAY, keep: 2 * DAY },
  // Availability drives booking decisions: never old for long, not served stale after an outage.
  availability: { fresh: 20, stale: 40, errorGrace: 0 },
  bookingList: { fresh: 10, stale: 30, errorGrace: 5 * MINUTE },
  guestList: { fresh: 15, stale: MINUTE, errorGrace: 5 * MINUTE },
  guest: { fresh: 15, stale: MINUTE, errorGrace: 5 * MINUTE },
} as const satisfies Record<string, CachePolicy>;
