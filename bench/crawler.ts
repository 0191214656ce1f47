/**
 * Crawler-plus-humans bench: one crawler reading 5 distinct pages a second on one tenant (real posts
 * and unknown URLs), while humans browse the popular pages of every tenant, against the built server
 * and the contract mock at its documented limits (60 anonymous reads a minute), with no read tokens.
 * Reports human page views failed (target < 1 %), crawler page views served (stale counts as
 * served), upstream 429s (target 0) and the server's peak RSS.
 *
 *   node bench/crawler.ts            20 seconds (the default, also in `npm run bench`)
 *   node bench/crawler.ts --full     the two minutes of the issue
 *
 * Uses dist-bench/ (built by the reading bench; built here when missing), the mock on the bench's
 * ports like the reading bench (bench/pages.ts), and the server on BENCH_PORT + 1 (4701) with
 * TRUST_PROXY so every human can have an address of its own (X-Forwarded-For), as behind a real proxy.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { BENCH_PORT, benchMock, MOCK_CONTROL as CONTROL, upstreamEnv } from './pages.ts';
import { prng } from './random.ts';

const root = new URL('../', import.meta.url);
const PORT = BENCH_PORT + 1;
const PUBLISHING = upstreamEnv.PUBLISHING_BASE_URL;
const CRAWLED = 'daily-planet';
const TENANTS = ['daily-planet', 'harbour-times', 'alpine-post'];
const CRAWLER_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

export interface CrawlerBenchResult {
  seconds: number;
  humanViews: number;
  humanFailed: number;
  humanFailedPercent: number;
  crawlerViews: number;
  crawlerServed: number;
  crawlerServedPercent: number;
  crawlerRefused503: number;
  upstream429: number;
  staleBeyondWindow: number;
  visitorRejected: number;
  peakRssMb: number;
  ok: boolean;
}

interface View {
  status: number;
}

function get(path: string, host: string, headers: Record<string, string>): Promise<View> {
  return new Promise((resolve) => {
    const req = http.get(
      `http://127.0.0.1:${PORT}${path}`,
      { headers: { host, ...headers }, timeout: 30_000 },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0 }));
  });
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${CONTROL}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

/** Slugs of the newest posts of a tenant, straight from the mock (before the measured window). */
async function slugs(tenant: string, pages: number): Promise<string[]> {
  const found: string[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const response = await fetch(`${PUBLISHING}/posts?per_page=50&page=${page}`, {
      headers: { 'X-Tenant': tenant, Accept: 'application/json' },
    });
    const body = (await response.json()) as { data?: { slug: string }[] };
    found.push(...(body.data ?? []).map((post) => post.slug));
  }
  return found;
}

function startServer(): Promise<ChildProcess> {
  const env: Record<string, string | undefined> = { ...process.env };
  // No read tokens: every tenant shares the anonymous budget (the case the bench is about).
  for (const name of Object.keys(env)) if (/PUBLISHING_.*TOKEN$/.test(name)) delete env[name];
  for (const name of [
    'PUBLISHING_PUBLIC_PER_MINUTE',
    'UPSTREAM_VISITOR_SHARE',
    'PAGE_DEADLINE_MS',
  ]) {
    delete env[name];
  }
  const child = spawn(process.execPath, ['dist-bench/server/entry.mjs'], {
    cwd: root,
    env: { ...env, ...upstreamEnv, HOST: '127.0.0.1', PORT: String(PORT), TRUST_PROXY: 'true' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 20_000;
    const poll = () => {
      fetch(`http://127.0.0.1:${PORT}/favicon.svg`)
        .then(() => resolve(child))
        .catch(() =>
          Date.now() > deadline ? reject(new Error('server did not start')) : setTimeout(poll, 200),
        );
    };
    poll();
  });
}

function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid ?? 0}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function run(options: { seconds?: number } = {}): Promise<CrawlerBenchResult> {
  const seconds = options.seconds ?? 20;
  if (!existsSync(new URL('dist-bench/server/entry.mjs', root))) {
    execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
      cwd: root,
      env: { ...process.env, MASTHEAD_OUT_DIR: './dist-bench', ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const mock = await benchMock();
  let server: ChildProcess | undefined;
  try {
    await control('POST', '/reset');
    await control('DELETE', '/faults');
    const crawledSlugs = await slugs(CRAWLED, 4);
    const popular = new Map<string, string[]>();
    for (const tenant of TENANTS) popular.set(tenant, (await slugs(tenant, 1)).slice(0, 3));
    // Fresh windows at the documented limit: the listing above must not count.
    await control('POST', '/limits', { publicPerMinute: 60 });

    server = await startServer();
    const random = prng(20261122);
    const humanViews: Promise<View>[] = [];
    const crawlerViews: Promise<View>[] = [];
    let peak = rssMb(server.pid);
    const started = Date.now();
    let tick = 0;
    // Every 200 ms: one crawler page (5 a second) and, every other tick, one human page view.
    while (Date.now() - started < seconds * 1000) {
      const crawlPath =
        tick % 2 === 0 && crawledSlugs.length > 0
          ? `/posts/${crawledSlugs[(tick / 2) % crawledSlugs.length] ?? ''}`
          : `/posts/unknown-${tick}-${Math.floor(random() * 1e9)}`;
      crawlerViews.push(
        get(crawlPath, `${CRAWLED}.localhost`, {
          'user-agent': CRAWLER_UA,
          'x-forwarded-for': `66.249.66.${tick % 200}`,
        }),
      );
      if (tick % 2 === 0) {
        const tenant = TENANTS[Math.floor(random() * TENANTS.length)] ?? CRAWLED;
        const posts = popular.get(tenant) ?? [];
        const choice = random();
        const path =
          choice < 0.3 || posts.length === 0
            ? '/'
            : choice < 0.4
              ? '/categories'
              : `/posts/${posts[Math.floor(random() * posts.length)] ?? ''}`;
        humanViews.push(
          get(path, `${tenant}.localhost`, {
            'user-agent': BROWSER_UA,
            'x-forwarded-for': `10.0.${Math.floor(random() * 4)}.${Math.floor(random() * 50)}`,
          }),
        );
      }
      tick += 1;
      peak = Math.max(peak, rssMb(server.pid));
      await sleep(200);
    }
    const humans = await Promise.all(humanViews);
    const crawler = await Promise.all(crawlerViews);
    peak = Math.max(peak, rssMb(server.pid));
    const status = (await fetch(`http://127.0.0.1:${PORT}/_status`).then((r) => r.json())) as {
      totals: Record<string, number>;
    };
    const humanFailed = humans.filter((view) => view.status !== 200).length;
    // Unknown URLs answer 404: served, like a real page. Refused means 503 (or no answer).
    const crawlerServed = crawler.filter((view) => view.status === 200 || view.status === 404);
    const upstream429 = status.totals['rateLimited429'] ?? 0;
    const humanFailedPercent = (100 * humanFailed) / Math.max(1, humans.length);
    return {
      seconds,
      humanViews: humans.length,
      humanFailed,
      humanFailedPercent: Math.round(humanFailedPercent * 100) / 100,
      crawlerViews: crawler.length,
      crawlerServed: crawlerServed.length,
      crawlerServedPercent: Math.round((1000 * crawlerServed.length) / crawler.length) / 10,
      crawlerRefused503: crawler.filter((view) => view.status === 503).length,
      upstream429,
      staleBeyondWindow: status.totals['staleBeyondWindow'] ?? 0,
      visitorRejected: status.totals['visitorRejected'] ?? 0,
      peakRssMb: Math.round(peak),
      ok: humanFailedPercent < 1 && upstream429 === 0,
    };
  } finally {
    server?.kill();
    await mock.close();
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const result = await run({ seconds: process.argv.includes('--full') ? 120 : 20 });
  console.log(JSON.stringify(result, null, 2));
}
