/**
 * Upstream bench: how many upstream calls a realistic page-view mix costs with the read cache and
 * budget in front, and proof that the budget keeps us clear of upstream 429s.
 *
 *   node bench/upstream.ts [views] [simulatedMinutes]
 *
 * Time is compressed: the cache runs on a simulated clock (`simulatedMinutes` of traffic), while the
 * mock's per-minute window and our budget are real-time. So the run fits in one real window, both
 * the mock's public limit and our budget are set to the documented 60/min × simulated minutes: the
 * same total allowance, without its per-minute spreading.
 */
import { startMock } from '../mock/index.ts';
import { publishingClient } from '../src/lib/publishing/client.ts';
import type { PublishingClient } from '../src/lib/publishing/client.ts';
import { createMetrics } from '../src/lib/upstream/metrics.ts';
import { createUpstream } from '../src/lib/upstream/runtime.ts';
import { prng, weighted } from './random.ts';

export interface BenchOptions {
  views?: number;
  simulatedMinutes?: number;
  seed?: number;
}

export interface BenchResult {
  views: number;
  simulatedMinutes: number;
  reads: number;
  upstreamCalls: number;
  upstreamCallsPer1000Views: number;
  cacheHitRatio: number;
  hits: number;
  staleServes: number;
  misses: number;
  coalesced: number;
  failedViews: number;
  budgetRejected: number;
  upstream429: number;
  mockRequests: number;
  ok: boolean;
}

const TENANTS: [string, number][] = [
  ['daily-planet', 0.5],
  ['harbour-times', 0.3],
  ['alpine-post', 0.2],
];
const PAGES: [string, number][] = [
  ['post', 0.4],
  ['home', 0.2],
  ['category', 0.15],
  ['tag', 0.08],
  ['plans', 0.04],
  ['epaper', 0.04],
  ['streams', 0.05],
  ['search', 0.04],
];
const SEARCH_WORDS = [
  'council',
  'harbour',
  'market',
  'school',
  'festival',
  'train',
  'budget',
  'storm',
];

/** Zipf(s ≈ 1.1) over `items`: a few very popular, a long tail. */
function zipf<T>(random: () => number, items: readonly T[]): T {
  const weights = items.map((_, i) => 1 / (i + 1) ** 1.1);
  return weighted(
    random,
    items.map((item, i) => [item, weights[i] ?? 0] as [T, number]),
  );
}

interface Catalog {
  posts: string[];
  categories: string[];
  tags: string[];
}

async function catalogOf(baseUrl: string, tenant: string): Promise<Catalog> {
  const get = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}`, { headers: { 'X-Tenant': tenant } });
    return ((await res.json()) as { data: { slug: string }[] }).data.map((x) => x.slug);
  };
  const [page1, page2, page3, categories, tags] = await Promise.all([
    get('/posts?per_page=50&page=1'),
    get('/posts?per_page=50&page=2'),
    get('/posts?per_page=50&page=3'),
    get('/categories'),
    get('/tags'),
  ]);
  return { posts: [...page1, ...page2, ...page3], categories, tags };
}

async function view(pub: PublishingClient, page: string, c: Catalog, random: () => number) {
  const nav = pub.listCategories();
  switch (page) {
    case 'post': {
      const slug = zipf(random, c.posts);
      return Promise.all([nav, pub.getPost(slug), pub.listComments(slug)]);
    }
    case 'home':
      // The front page's reads (src/lib/reading/front-page-load.ts); the demo tenants have streams and e-paper.
      return Promise.all([
        nav,
        pub.listPosts({ page: 1, perPage: 50 }),
        pub.listPosts({ featured: true, perPage: 3 }),
        pub.listStreams({ page: 1, perPage: 12 }),
        pub.listEditions({ page: 1, perPage: 12 }),
      ]);
    case 'category':
      return Promise.all([
        nav,
        pub.getCategory(zipf(random, c.categories), { page: random() < 0.85 ? 1 : 2 }),
      ]);
    case 'tag':
      return Promise.all([nav, pub.getTag(zipf(random, c.tags))]);
    case 'plans':
      return Promise.all([nav, pub.listPlans()]);
    case 'epaper':
      return Promise.all([nav, pub.listEditions()]);
    case 'streams':
      return Promise.all([nav, pub.listStreams()]);
    default:
      return Promise.all([nav, pub.listPosts({ search: zipf(random, SEARCH_WORDS) })]);
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const views = options.views ?? 1200;
  const simulatedMinutes = options.simulatedMinutes ?? 20;
  const random = prng(options.seed ?? 7);
  const allowance = 60 * simulatedMinutes;

  const mock = await startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0 });
  try {
    const catalogs = new Map<string, Catalog>();
    for (const [tenant] of TENANTS)
      catalogs.set(tenant, await catalogOf(mock.publishingUrl, tenant));
    // Fresh limiter windows and zeroed stats after reading the catalog.
    const control = (method: string, path: string, body?: unknown) =>
      fetch(`${mock.controlUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    await control('POST', '/limits', { publicPerMinute: allowance });
    await control('DELETE', '/stats');

    let clock = Date.now();
    const step = (simulatedMinutes * 60_000) / views;
    const up = createUpstream({
      metrics: createMetrics({ log: () => undefined }),
      limits: { publishingPublicPerMinute: allowance },
      now: () => clock,
    });
    const clients = new Map(
      TENANTS.map(([tenant]) => [
        tenant,
        publishingClient({ tenantId: tenant, baseUrl: mock.publishingUrl, upstream: up }),
      ]),
    );

    let failedViews = 0;
    for (let i = 0; i < views; i += 1) {
      clock += step;
      const tenant = weighted(random, TENANTS);
      const page = weighted(random, PAGES);
      const pub = clients.get(tenant);
      const catalog = catalogs.get(tenant);
      if (!pub || !catalog) continue;
      try {
        await view(pub, page, catalog, random);
      } catch {
        failedViews += 1;
      }
    }
    await up.cache.settle();

    const totals = up.metrics.getStatus().totals;
    const stats = (await (await control('GET', '/stats')).json()) as {
      publishing: { total: number };
    };
    const reads = totals.cacheHits + totals.staleServes + totals.misses + totals.coalesced;
    const result: BenchResult = {
      views,
      simulatedMinutes,
      reads,
      upstreamCalls: totals.upstreamCalls,
      upstreamCallsPer1000Views: Math.round((totals.upstreamCalls / views) * 1000 * 10) / 10,
      cacheHitRatio:
        Math.round(
          ((totals.cacheHits + totals.staleServes + totals.coalesced) / Math.max(reads, 1)) * 1000,
        ) / 1000,
      hits: totals.cacheHits,
      staleServes: totals.staleServes,
      misses: totals.misses,
      coalesced: totals.coalesced,
      failedViews,
      budgetRejected: totals.budgetRejected,
      upstream429: totals.rateLimited429,
      mockRequests: stats.publishing.total,
      ok: totals.rateLimited429 === 0 && stats.publishing.total === totals.upstreamCalls,
    };
    return result;
  } finally {
    await mock.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const views = Number(process.argv[2] ?? 1200);
  const minutes = Number(process.argv[3] ?? 20);
  const result = await run({ views, simulatedMinutes: minutes });
  console.log(JSON.stringify(result, null, 2));
  if (!result.ok) {
    console.error('FAIL: upstream 429s seen or call counts disagree');
    process.exitCode = 1;
  }
}
