import { z } from 'zod';
import { logger } from '../log/log.ts';
import type { UpstreamError, UpstreamService } from './errors.ts';
import type { DroppedItem } from './parse.ts';

const count = z.number().default(0);
const countersSchema = z.object({
  upstreamCalls: count,
  cacheHits: count,
  staleServes: count,
  misses: count,
  coalesced: count,
  rateLimited429: count,
  budgetRejected: count,
  /** Cache misses refused because this visitor (an address or a crawler) spent its share. */
  visitorRejected: count,
  /** Upstream 404s answered from the short negative cache. */
  notFoundHits: count,
  /** Values past their whole window served because the budget was spent (a slightly old page). */
  staleBeyondWindow: count,
  /** List items left out because they do not match their schema (`itemsOf`); the rest shown. */
  droppedItems: count,
  errors: z.record(z.string(), z.number()).default(() => ({})),
});

/** Counters of one tenant (or lodging account) and service. */
export type Counters = z.output<typeof countersSchema>;
export type CounterName = Exclude<keyof Counters, 'errors'>;
const COUNTER_NAMES = countersSchema.keyof().exclude(['errors']).options;
const emptyCounters = (): Counters => countersSchema.parse({});

/**
 * Writes one event: to the process's logger, or as a JSON line (level, event and time first) to
 * `log` where a test or the build reads or silences them.
 */
export const lineWriter =
  (log?: (line: string) => void) =>
  (level: 'warn' | 'error', event: string, fields: object): void => {
    if (!log) return void logger[level]({ event, ...fields });
    log(JSON.stringify({ level, event, time: new Date().toISOString(), ...fields }));
  };

/**
 * An upstream answer the site cannot use although the call succeeded: a field it needs is missing
 * or unreadable. Not an outage (retrying will not help); someone has to look at the integration.
 */
interface IntegrationProblem {
  service: UpstreamService;
  tenant: string;
  operation: string;
  /** The field as the upstream would name it, e.g. `property.currency`. */
  field: string;
  /** What the site does instead, for the operator. */
  effect: string;
  firstSeen: string;
  lastSeen: string;
  count: number;
}

/** How long a repeating failure (a tenant's address that redirects) waits before its next line. */
const REPEAT_LINE_MS = 10 * 60_000;

/** Where counts also go as they happen (the Prometheus exporter: src/lib/observability/). */
export interface MetricsSink {
  count(service: UpstreamService, tenant: string, counter: CounterName, by: number): void;
  /** One upstream attempt's outcome, by operation: an HTTP status, or `timeout` / `network`. */
  answered(service: UpstreamService, tenant: string, operation: string, outcome: string): void;
  /** One failure, by its class (`error.name`: `TimeoutError`, `UpstreamServerError`, …). */
  failed(service: UpstreamService, tenant: string, errorClass: string): void;
}

export type Metrics = ReturnType<typeof createMetrics>;

interface MetricsOptions {
  /** Failure and integration-problem lines (tests: a spy or a no-op); else the logger. */
  log?: (line: string) => void;
  sink?: MetricsSink | undefined;
}

/**
 * Plain counters per instance, not prom-client's: `/_status` and tests read them synchronously per
 * `Upstream` (prom-client's `get()` is async and its registry per process); Prometheus gets every
 * count through `sink` (src/lib/observability/prometheus.ts).
 */
export function createMetrics(options: MetricsOptions = {}) {
  const write = lineWriter(options.log);
  const startedAt = new Date();
  /** Keyed `"<service>:<tenant>"`. */
  const byTenant = new Map<string, Counters>();
  const problems = new Map<string, IntegrationProblem>();
  /** When each repeating failure last wrote its line (`failure`'s `repeats`). */
  const lastLines = new Map<string, number>();

  const countersFor = (service: UpstreamService, tenant: string): Counters => {
    const key = `${service}:${tenant}`;
    const counters = byTenant.get(key) ?? emptyCounters();
    byTenant.set(key, counters);
    return counters;
  };

  return {
    count(service: UpstreamService, tenant: string, counter: CounterName, by = 1): void {
      countersFor(service, tenant)[counter] += by;
      options.sink?.count(service, tenant, counter, by);
    },
    /** For the exporter and the request's log line (`MetricsSink.answered`). */
    answered(...outcome: Parameters<MetricsSink['answered']>): void {
      options.sink?.answered(...outcome);
    },
    /**
     * Counts the error by class and writes one JSON warning line (no token, no query). A failure
     * every call repeats until someone fixes the configuration (`repeats`: what it is about, e.g.
     * the tenant's address) writes its line once per `REPEAT_LINE_MS`, and is counted every time.
     */
    failure(tenant: string, error: UpstreamError, repeats?: string): void {
      const counters = countersFor(error.service, tenant);
      counters.errors[error.name] = (counters.errors[error.name] ?? 0) + 1;
      options.sink?.failed(error.service, tenant, error.name);
      if (repeats !== undefined) {
        const key = `${error.service}|${tenant}|${repeats}`;
        if (Date.now() - (lastLines.get(key) ?? -Infinity) < REPEAT_LINE_MS) return;
        lastLines.set(key, Date.now());
      }
      write('warn', 'upstream_failure', { tenant, ...error.toLog() });
    },
    /** Counts a list item left out and writes one JSON warning line (which item, which fields). */
    dropped(tenant: string, from: Pick<UpstreamError, 'service' | 'operation'>, item: DroppedItem) {
      this.count(from.service, tenant, 'droppedItems');
      write('warn', 'upstream_item_dropped', { tenant, ...from, ...item });
    },
    /**
     * Records an integration problem: one error-level line the first time a (service, tenant,
     * operation, field) is seen, then only counted (shown in `/_status`).
     */
    problem(
      found: Pick<IntegrationProblem, 'service' | 'tenant' | 'operation' | 'field' | 'effect'>,
    ): void {
      const key = [found.service, found.tenant, found.operation, found.field].join('|');
      const now = new Date().toISOString();
      const known = problems.get(key);
      if (known) {
        known.count += 1;
        known.lastSeen = now;
        return;
      }
      problems.set(key, { ...found, firstSeen: now, lastSeen: now, count: 1 });
      write('error', 'upstream_integration_problem', found);
    },
    getStatus() {
      const totals = emptyCounters();
      const tenants: Record<string, Counters> = {};
      for (const [key, counters] of byTenant) {
        tenants[key] = { ...counters, errors: { ...counters.errors } };
        for (const name of COUNTER_NAMES) totals[name] += counters[name];
        for (const [name, n] of Object.entries(counters.errors)) {
          totals.errors[name] = (totals.errors[name] ?? 0) + n;
        }
      }
      return {
        startedAt: startedAt.toISOString(),
        totals,
        byTenant: tenants,
        integrationProblems: [...problems.values()].map((p) => ({ ...p })),
      };
    },
  };
}

/**
 * What this process has learnt about reading each upstream operation, per tenant: the site's own
 * answer to "which operations and fields can it not read" (`/_status`, `profiles`). Filled by the
 * client core on every upstream call; small (one entry per tenant and operation).
 */
export interface OperationFinding {
  service: UpstreamService;
  tenant: string;
  operation: string;
  /** The profile in use (`default` when the tenant names none). */
  profile: string;
  /** `ok`; `missing-fields` (parsed, but a needed field is absent); `unreadable` (the body did not parse); `no-route` (404 on a list). */
  state: 'ok' | 'missing-fields' | 'unreadable' | 'no-route';
  missing: string[];
  /** What the schema refused, for an unreadable answer (`items.0.title: Invalid input`). */
  issues?: string | undefined;
  status?: number | undefined;
  at: string;
}

const findings = new Map<string, OperationFinding>();

export function recordFinding(finding: Omit<OperationFinding, 'at'>): void {
  findings.set(`${finding.service}|${finding.tenant}|${finding.operation}`, {
    ...finding,
    at: new Date().toISOString(),
  });
}

/** Every finding, problems first; `tenant` narrows to one tenant (or lodging account). */
export function operationFindings(tenant?: string): OperationFinding[] {
  const rank = { unreadable: 0, 'no-route': 1, 'missing-fields': 2, ok: 3 } as const;
  return [...findings.values()]
    .filter((f) => tenant === undefined || f.tenant === tenant)
    .sort((a, b) => rank[a.state] - rank[b.state] || a.operation.localeCompare(b.operation));
}

/** For tests. */
export function clearFindings(): void {
  findings.clear();
}
