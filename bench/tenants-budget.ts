/**
 * Fifty anonymous tenants on one server against the publishing mock (issue 35): readers with
 * rushes larger than the whole budget, a sign-in every two seconds and fifty change watchers, all
 * spending the one per-address budget, against a mock counting by `fixed` or `sliding` window.
 *
 *   npm run bench:tenants                      five 60 s windows, fixed then sliding (about 10 min)
 *   BENCH_WINDOWS=3 BENCH_WINDOW_SECONDS=6 npm run bench:tenants      scaled down
 *
 * It runs under Vitest (vitest.bench.config.ts, bench/tenants-budget.run.ts): the change watcher
 * reaches modules that import Vite's `?raw`, which plain Node cannot load.
 * `windowSeconds` scales the minute down (the mock's window and the site's budget alike, 60 calls
 * per window): tests/integration/fifty-tenants.test.ts runs six 6 s windows of the same scenario.
 */
import { startMock } from '../mock/index.ts';
import type { LimitWindow } from '../mock/lib/ratelimit.ts';
import { watchTenant } from '../src/lib/freshness/watcher.ts';
import { publishingClient } from '../src/lib/publishing/client.ts';
import type { PublishingClient } from '../src/lib/publishing/client.ts';
import { generatedTenants } from '../tests/fixtures/tenants.ts';
import { budgetKeys } from '../src/lib/upstream/budget.ts';
import { RateLimitedError } from '../src/lib/upstream/errors.ts';
import { createMetrics } from '../src/lib/upstream/metrics.ts';
import { createUpstream, runForVisitor } from '../src/lib/upstream/runtime.ts';
import { startTenantProxy } from './origin-tenants.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const PASSWORD = 'masthead-demo';

export interface TenantsBudgetOptions {
  window: LimitWindow;
  windowSeconds: number;
  windows: number;
  tenants?: number;
}

export interface TenantsBudgetResult {
  window: LimitWindow;
  windowSeconds: number;
  windows: number;
  tenants: number;
  /** 429s the mock sent. */
  mock429: number;
  /** Calls that reached the mock, and the most in any one window (sampled every 100 ms). */
  upstreamCalls: number;
  busiestWindow: number;
  readsServed: number;
  readsRefused: number;
  signIns: number;
  signInsRefused: number;
  /** Successful looks of the watchers: tenants looked at, fewest and most per tenant. */
  watcherLooks: number;
  tenantsWatched: number;
  fewestLooks: number;
  mostLooks: number;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runTenantsBudget(
  options: TenantsBudgetOptions,
): Promise<TenantsBudgetResult> {
  const count = options.tenants ?? 50;
  const windowMs = options.windowSeconds * 1000;
  const mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    limits: { publicPerMinute: 60, window: options.window, windowSeconds: options.windowSeconds },
  });
  // Every generated tenant `t<n>` is answered as daily-planet, all from one address.
  const proxy = await startTenantProxy(mock.publishingUrl);
  const tenants = generatedTenants(count, proxy.url);
  const up = createUpstream({
    metrics: createMetrics({ log: () => undefined }),
    limits: { publishingPublicPerMinute: 60 },
    windowSeconds: options.windowSeconds,
  });
  const clients = tenants.map((tenant) =>
    publishingClient({ tenantId: tenant.id, baseUrl: proxy.url, upstream: up }),
  );
  const clientOf = (n: number) => clients[n % count] as PublishingClient;
  const looks = new Map<string, number>();
  const watchers = tenants.map((tenant, n) =>
    watchTenant({
      tenant,
      tenantsSharing: () => count,
      upstream: up,
      budgetKey: budgetKeys.publishingPublic(proxy.url),
      publishing: {
        listPosts: async (...args: Parameters<PublishingClient['listPosts']>) => {
          const list = await clientOf(n).listPosts(...args);
          looks.set(tenant.id, (looks.get(tenant.id) ?? 0) + 1);
          return list;
        },
      },
    }),
  );

  const outcome = { readsServed: 0, readsRefused: 0, signIns: 0, signInsRefused: 0 };
  const pending: Promise<unknown>[] = [];
  let page = 0;
  const refused = (key: 'readsRefused' | 'signInsRefused') => (error: unknown) => {
    if (!(error instanceof RateLimitedError)) throw error;
    outcome[key] += 1;
  };
  const read = (n: number) => {
    page += 1;
    // A distinct list page each time (a cache miss: one upstream call), each from its own address.
    const ip = `10.0.${Math.floor(page / 250) % 250}.${page % 250}`;
    pending.push(
      runForVisitor(up, ip, BROWSER, () => clientOf(n).listPosts({ page, perPage: 5 })).then(
        () => (outcome.readsServed += 1),
        refused('readsRefused'),
      ),
    );
  };
  const signIn = (n: number) => {
    outcome.signIns += 1;
    pending.push(
      runForVisitor(up, `192.0.2.${n % 250}`, BROWSER, () =>
        clientOf(n).login('subscriber@masthead.test', PASSWORD),
      ).catch(refused('signInsRefused')),
    );
  };

  // Upstream calls over time, from the mock's own count.
  const samples: { at: number; total: number }[] = [];
  const sampler = setInterval(() => {
    samples.push({ at: Date.now(), total: mock.state.stats.publishing.total });
  }, 100);

  // Ticks of a twelfth of a window: one new page a tick (12 a window) throughout. In the first half,
  // rushes of 60 pages at once, more than the whole budget: at 3/4 of the site's first window and
  // 1/6 into its second (a fixed-window budget lets both through), and in the third. A sign-in
  // every four ticks (3 a window).
  const tickMs = windowMs / 12;
  const rushes = new Set([9, 14, 30]);
  const started = Date.now();
  for (let tick = 0; Date.now() - started < options.windows * windowMs; tick += 1) {
    read(tick);
    if (rushes.has(tick)) for (let i = 0; i < 60; i += 1) read(tick + i);
    if (tick % 4 === 0) signIn(tick);
    await wait(tickMs);
  }
  for (const watcher of watchers) watcher.stop();
  await Promise.all(pending);
  clearInterval(sampler);

  let busiestWindow = 0;
  let first = 0;
  for (const sample of samples) {
    while ((samples[first]?.at ?? 0) <= sample.at - windowMs) first += 1;
    const before = samples[first - 1]?.total ?? 0;
    busiestWindow = Math.max(busiestWindow, sample.total - before);
  }
  const counts = tenants.map((tenant) => looks.get(tenant.id) ?? 0);
  const result: TenantsBudgetResult = {
    window: options.window,
    windowSeconds: options.windowSeconds,
    windows: options.windows,
    tenants: count,
    mock429: mock.state.stats.publishing.rateLimited.total,
    upstreamCalls: mock.state.stats.publishing.total,
    busiestWindow,
    ...outcome,
    watcherLooks: counts.reduce((sum, n) => sum + n, 0),
    tenantsWatched: counts.filter((n) => n > 0).length,
    fewestLooks: Math.min(...counts),
    mostLooks: Math.max(...counts),
  };
  await proxy.close();
  await mock.close();
  return result;
}
