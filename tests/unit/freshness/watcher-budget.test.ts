import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchTenant } from '../../../src/lib/freshness/watcher.ts';
import type { Watcher } from '../../../src/lib/freshness/watcher.ts';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import type { PublishingClient } from '../../../src/lib/publishing/client.ts';
import { budgetKeys } from '../../../src/lib/upstream/budget.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import type { Upstream } from '../../../src/lib/upstream/runtime.ts';
import { generatedTenants } from '../../fixtures/tenants.ts';

// Nothing listens there: a watcher call that got past the budget would fail on the network.
const BASE = 'http://127.0.0.1:9/api/v1';
const KEY = budgetKeys.publishingPublic(BASE);
const tenants = generatedTenants(50, BASE);

let watchers: Watcher[] = [];
let lines: string[] = [];
let restoreLog: () => void = () => undefined;

beforeEach(() => {
  vi.useFakeTimers();
  lines = [];
  restoreLog = redirectLogLines((line) => lines.push(line));
});

afterEach(() => {
  for (const watcher of watchers) watcher.stop();
  watchers = [];
  restoreLog();
  vi.useRealTimers();
});

function upstream(): Upstream {
  return createUpstream({ metrics: createMetrics({ log: () => undefined }) });
}

/** Fifty anonymous tenants' watchers on one bucket, each look through `listPosts`. */
function watchAll(up: Upstream, listPosts: (tenant: string) => PublishingClient['listPosts']) {
  watchers = tenants.map((tenant) =>
    watchTenant({
      tenant,
      tenantsSharing: () => tenants.length,
      upstream: up,
      budgetKey: KEY,
      publishing: { listPosts: listPosts(tenant.id) },
    }),
  );
}

describe('fifty change watchers on one anonymous budget', () => {
  it('spread their first looks over the first interval instead of the first second', async () => {
    const looks: { tenant: string; at: number }[] = [];
    const started = Date.now();
    watchAll(upstream(), (tenant) => () => {
      looks.push({ tenant, at: Date.now() - started });
      return Promise.resolve({ items: [] } as unknown as Awaited<
        ReturnType<PublishingClient['listPosts']>
      >);
    });
    await vi.advanceTimersByTimeAsync(1000);
    // Issue 35 saw 50 of the first 54 calls in the first second after a start.
    expect(looks.length).toBeLessThanOrEqual(3);
    // 54 a minute, a quarter for 50 watchers: one look each every 222 s, the first anywhere in it.
    await vi.advanceTimersByTimeAsync(222_300);
    expect(new Set(looks.map((look) => look.tenant)).size).toBe(50);
    // About 13.5 in the first minute (a quarter of 54), as random as the jitter; never the 50.
    const firstMinute = looks.filter((look) => look.at < 60_000).length;
    expect(firstMinute).toBeLessThanOrEqual(25);
  });

  it('are charged after readers: with the budget near its readers’ end they wait, quietly', async () => {
    const up = upstream();
    // Readers spent 42 of the 54 (the watchers' line); 6 are left for readers, 6 for writes.
    for (let i = 0; i < 42; i += 1) expect((await up.budget.take(KEY, 'read')).ok).toBe(true);
    watchAll(up, (tenant) => {
      const client = publishingClient({ tenantId: tenant, baseUrl: BASE, upstream: up });
      return (...args) => client.listPosts(...args);
    });
    await vi.advanceTimersByTimeAsync(50_000);
    const totals = up.metrics.getStatus().totals;
    expect(totals.upstreamCalls).toBe(0);
    expect(totals.budgetRejected).toBeGreaterThan(0);
    // Waiting behind readers is not a failure: no warning line per refused look.
    expect(lines.filter((line) => line.includes('freshness.look.failed'))).toEqual([]);
    // What readers had left is still theirs.
    let reads = 0;
    while ((await up.budget.take(KEY, 'read')).ok) reads += 1;
    expect(reads).toBe(6);
  });
});
