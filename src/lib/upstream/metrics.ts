import type { UpstreamError, UpstreamService } from './errors.ts';

/** Counters of one tenant (or lodging account) and service. */
export interface Counters {
  upstreamCalls: number;
  cacheHits: number;
  staleServes: number;
  misses: number;
  coalesced: number;
  rateLimited429: number;
  budgetRejected: number;
  /** Cache misses refused because this visitor (an address or a crawler) spent its share. */
  visitorRejected: number;
  /** Upstream 404s answered from the short negative cache. */
  notFoundHits: number;
  /** Values past their whole window served because the budget was spent (a slightly old page). */
  staleBeyondWindow: number;
  errors: Record<string, number>;
}

export interface MetricsSnapshot {
  startedAt: string;
  totals: Counters;
  /** Keyed `"<service>:<tenant>"`. */
  byTenant: Record<string, Counters>;
}

export type CounterName = Exclude<keyof Counters, 'errors'>;

export interface Metrics {
  count(service: UpstreamService, tenant: string, counter: CounterName, by?: number): void;
  /** Counts the error by class and writes one JSON `console.warn` line (no token, no query). */
  failure(tenant: string, error: UpstreamError): void;
  getStatus(): MetricsSnapshot;
  reset(): void;
}

function emptyCounters(): Counters {
  return {
    upstreamCalls: 0,
    cacheHits: 0,
    staleServes: 0,
    misses: 0,
    coalesced: 0,
    rateLimited429: 0,
    budgetRejected: 0,
    visitorRejected: 0,
    notFoundHits: 0,
    staleBeyondWindow: 0,
    errors: {},
  };
}

export interface MetricsOptions {
  /** Where failure lines go; defaults to `console.warn`. Tests pass a spy or a no-op. */
  log?: (line: string) => void;
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const log = options.log ?? ((line: string) => console.warn(line));
  let startedAt = new Date();
  let byTenant = new Map<string, Counters>();

  const countersFor = (service: UpstreamService, tenant: string): Counters => {
    const key = `${service}:${tenant}`;
    let counters = byTenant.get(key);
    if (!counters) {
      counters = emptyCounters();
      byTenant.set(key, counters);
    }
    return counters;
  };

  return {
    count(service, tenant, counter, by = 1) {
      countersFor(service, tenant)[counter] += by;
    },
    failure(tenant, error) {
      const counters = countersFor(error.service, tenant);
      counters.errors[error.name] = (counters.errors[error.name] ?? 0) + 1;
      log(
        JSON.stringify({
          level: 'warn',
          event: 'upstream_failure',
          time: new Date().toISOString(),
          tenant,
          ...error.toLog(),
        }),
      );
    },
    getStatus() {
      const totals = emptyCounters();
      const tenants: Record<string, Counters> = {};
      for (const [key, counters] of byTenant) {
        tenants[key] = { ...counters, errors: { ...counters.errors } };
        for (const name of Object.keys(totals) as (keyof Counters)[]) {
          if (name === 'errors') continue;
          totals[name] += counters[name];
        }
        for (const [name, n] of Object.entries(counters.errors)) {
          totals.errors[name] = (totals.errors[name] ?? 0) + n;
        }
      }
      return { startedAt: startedAt.toISOString(), totals, byTenant: tenants };
    },
    reset() {
      startedAt = new Date();
      byTenant = new Map();
    },
  };
}
