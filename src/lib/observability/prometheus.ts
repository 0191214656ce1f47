import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { droppedLogLines } from '../log/log.ts';
import { currentRequest } from '../log/request-context.ts';
import type { CounterName, MetricsSink } from '../upstream/metrics.ts';

/**
 * The process's Prometheus metrics (prom-client), served by `/_metrics` (./endpoint.ts). Every
 * series carries `tenant`; several servers are told apart by Prometheus's own `instance` label.
 */
export const registry = new Registry();
// The process's own: resident memory, heap spaces, external memory, GC pauses, event-loop delay.
collectDefaultMetrics({ register: registry });

const registers = [registry];

const upstreamCalls = new Counter({
  name: 'masthead_upstream_calls_total',
  help: 'Upstream call attempts by service, tenant, operation and outcome (HTTP status, timeout, network).',
  labelNames: ['service', 'tenant', 'operation', 'status'] as const,
  registers,
});

const cacheReads = new Counter({
  name: 'masthead_upstream_cache_total',
  help: 'Upstream read cache: hit, miss, stale (served while refreshing or while the upstream fails), stale_beyond_window, coalesced, not_found_hit.',
  labelNames: ['service', 'tenant', 'result'] as const,
  registers,
});

const refusals = new Counter({
  name: 'masthead_upstream_refused_total',
  help: 'Calls not sent or refused: 429 (the upstream said so), budget (our own budget spent), visitor (one visitor spent its share).',
  labelNames: ['service', 'tenant', 'reason'] as const,
  registers,
});

const upstreamErrors = new Counter({
  name: 'masthead_upstream_errors_total',
  help: 'Upstream failures by tenant, service and class, as /_status counts them (TimeoutError, NetworkError, UpstreamServerError, RateLimitedError, InvalidResponseError, …).',
  labelNames: ['tenant', 'service', 'class'] as const,
  registers,
});

const droppedItems = new Counter({
  name: 'masthead_upstream_items_dropped_total',
  help: 'List items left out of a page because they do not match their schema (one warning line each).',
  labelNames: ['service', 'tenant'] as const,
  registers,
});

new Gauge({
  name: 'masthead_upstream_budget_remaining',
  help: 'Calls the site may still send in the current minute, by tenant and budget bucket (shared buckets repeat per tenant).',
  labelNames: ['tenant', 'bucket'] as const,
  registers,
  async collect() {
    this.reset();
    for (const { tenant, bucket, remaining } of (await budgetSource?.()) ?? []) {
      this.set({ tenant, bucket }, remaining);
    }
  },
});

new Counter({
  name: 'masthead_log_lines_dropped_total',
  help: 'Log lines dropped because 4 MiB of lines were already waiting for the log reader.',
  registers,
  collect() {
    this.reset();
    this.inc(droppedLogLines());
  },
});

const httpResponses = new Counter({
  name: 'masthead_http_responses_total',
  help: 'Responses by tenant, status class (2xx…5xx) and route cache state (hit, stale, miss, none).',
  labelNames: ['tenant', 'class', 'cache'] as const,
  registers,
});

const renderSeconds = new Histogram({
  name: 'masthead_render_seconds',
  help: 'Time to render a response that did not come from the route cache, by tenant and route.',
  labelNames: ['tenant', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
  registers,
});

const renderedParts = new Counter({
  name: 'masthead_rendered_parts_total',
  help: 'Page parts by tenant: kept (the HTML of an earlier render of the same data) or rendered.',
  labelNames: ['tenant', 'result'] as const,
  registers,
});

const watcherLag = new Histogram({
  name: 'masthead_watcher_lag_seconds',
  help: 'Time from a change upstream (its published_at / updated_at) to the invalidation of what shows it.',
  labelNames: ['tenant'] as const,
  buckets: [1, 2, 5, 10, 15, 20, 30, 45, 60, 120, 300],
  registers,
});

const CACHE_RESULTS: Partial<Record<CounterName, string>> = {
  cacheHits: 'hit',
  misses: 'miss',
  staleServes: 'stale',
  staleBeyondWindow: 'stale_beyond_window',
  coalesced: 'coalesced',
  notFoundHits: 'not_found_hit',
};
const REFUSALS: Partial<Record<CounterName, string>> = {
  rateLimited429: '429',
  budgetRejected: 'budget',
  visitorRejected: 'visitor',
};

/** The upstream metrics' sink (site/clients.ts wires it): counters, and the request's call count. */
export const upstreamSink: MetricsSink = {
  count(service, tenant, counter, by) {
    const result = CACHE_RESULTS[counter];
    if (result) cacheReads.inc({ service, tenant, result }, by);
    const reason = REFUSALS[counter];
    if (reason) refusals.inc({ service, tenant, reason }, by);
    if (counter === 'droppedItems') droppedItems.inc({ service, tenant }, by);
    const request = currentRequest();
    if (counter === 'upstreamCalls' && request) request.upstreamCalls += by;
  },
  answered(service, tenant, operation, status) {
    upstreamCalls.inc({ service, tenant, operation, status });
  },
  failed(service, tenant, errorClass) {
    upstreamErrors.inc({ tenant, service, class: errorClass });
  },
};

export interface BudgetReading {
  tenant: string;
  bucket: string;
  remaining: number;
}

let budgetSource: (() => Promise<BudgetReading[]>) | undefined;

/** What the budget gauge reads at each scrape (site/clients.ts knows each tenant's bucket). */
export function readBudgetsWith(source: () => Promise<BudgetReading[]>): void {
  budgetSource = source;
}

/** A response's count, and its render time when it did not come from the route cache. */
export function observeResponse(
  input: { tenant: string; status: number; cache: string; route?: string | undefined },
  seconds: number,
): void {
  const { tenant, status, cache, route } = input;
  httpResponses.inc({ tenant, class: `${Math.floor(status / 100)}xx`, cache });
  if (cache === 'miss' || cache === 'none') {
    renderSeconds.observe({ tenant, route: route ?? 'other' }, seconds);
  }
}

/** One `<Rendered>` part of a page: reused from an earlier render, or rendered now. */
export function observeRenderedPart(tenant: string, result: 'kept' | 'rendered'): void {
  renderedParts.inc({ tenant, result });
}

export function observeWatcherLag(tenant: string, seconds: number): void {
  watcherLag.observe({ tenant }, Math.max(0, seconds));
}
