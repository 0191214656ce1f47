/**
 * How often the change watcher reads a tenant's newest posts: at most 4 calls a minute, and no more
 * than a quarter of the budget bucket the tenant's pages spend, divided among the tenants sharing
 * that bucket (the anonymous publishing budget is one per upstream), so fifty tenants on one
 * anonymous bucket look every few minutes each. While the bucket is low it backs off, doubling up
 * to five minutes. Looks also spend at `background` priority (upstream/budget.ts): refused while
 * readers lack their headroom, then retried when a call leaves the window (`retryMs`).
 */
export interface PaceInput {
  /** Calls a minute the site allows itself in the tenant's bucket. */
  capacityPerMinute: number;
  tenantsSharing: number;
  /** Calls left in the bucket's current minute. */
  remaining: number;
  /** The interval used last time (for the back-off). */
  lastMs?: number | undefined;
  /** The budget's window when not a minute (tests scale it down): every interval scales with it. */
  windowMs?: number | undefined;
}

const PACE = {
  maxPerMinute: 4,
  /** Share of a bucket the watchers of all its tenants may spend. */
  share: 0.25,
  /** Below this share of the bucket left, back off. */
  lowShare: 0.2,
  /** The longest interval, and the least often a tenant is looked at. */
  slowestMs: 300_000,
} as const;

export function watchIntervalMs(input: PaceInput): number {
  const scale = (input.windowMs ?? 60_000) / 60_000;
  const slowest = PACE.slowestMs * scale;
  const perTenant = (input.capacityPerMinute * PACE.share) / Math.max(1, input.tenantsSharing);
  const perMinute = Math.max(60_000 / PACE.slowestMs, Math.min(PACE.maxPerMinute, perTenant));
  const steady = Math.ceil((60_000 * scale) / perMinute);
  if (input.remaining > input.capacityPerMinute * PACE.lowShare) return steady;
  return Math.min(slowest, Math.max(steady, input.lastMs ?? steady) * 2);
}

/**
 * The first look: somewhere in the first interval, so a start (or fifty tenants at once) spreads
 * its looks over the interval instead of spending the budget in its first second.
 */
export function firstLookMs(intervalMs: number, random: () => number = Math.random): number {
  return Math.floor(random() * intervalMs);
}

/**
 * After a look the budget refused: when a call next leaves the window, plus up to a second of
 * jitter so a bucket's refused watchers do not all come back at once. A refused watcher comes back
 * sooner than one that looked: that shares a scarce budget evenly across tenants.
 */
export function retryMs(waitSeconds: number, random: () => number = Math.random): number {
  return Math.max(1, waitSeconds) * 1000 + Math.floor(random() * 1000);
}
