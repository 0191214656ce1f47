/**
 * How often the change watcher reads a tenant's newest posts: at most `maxPerMinute` (4) calls a
 * minute, and no more than `share` of the budget bucket the tenant's pages spend, divided among the
 * tenants that share that bucket (the anonymous publishing budget is one per upstream, not per
 * tenant). While the bucket is low it backs off, doubling up to `slowestMs`.
 */
export interface PaceInput {
  /** Calls a minute the site allows itself in the tenant's bucket. */
  capacityPerMinute: number;
  /** Tenants whose watchers spend the same bucket. */
  tenantsSharing: number;
  /** Calls left in the bucket's current minute. */
  remaining: number;
  /** The interval used last time (for the back-off). */
  lastMs?: number | undefined;
}

export const PACE = {
  maxPerMinute: 4,
  /** Share of a bucket the watchers of all its tenants may spend. */
  share: 0.25,
  /** Below this share of the bucket left, back off. */
  lowShare: 0.2,
  slowestMs: 120_000,
} as const;

export function watchIntervalMs(input: PaceInput): number {
  const perTenant = (input.capacityPerMinute * PACE.share) / Math.max(1, input.tenantsSharing);
  const perMinute = Math.max(0.5, Math.min(PACE.maxPerMinute, perTenant));
  const steady = Math.ceil(60_000 / perMinute);
  if (input.remaining > input.capacityPerMinute * PACE.lowShare) return steady;
  return Math.min(PACE.slowestMs, Math.max(steady, input.lastMs ?? steady) * 2);
}
