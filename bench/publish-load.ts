/**
 * `node bench/publish-load.ts [--minutes 6] [--measure-from 1] [--restart-at M] [--edge]
 * [--build <dir>] [--skip-build]`
 * (issue 35, "one publish empties the
 * tenant"): one `npm start` without Redis and without read tokens (the default anonymous budget)
 * against the mock at its documented limits; three tenants of 63 pages each (189), asked for with a
 * Zipf popularity (rank r weighs 1/r) by visitors from many addresses, four requests a second; a
 * post published every 30 s, in turn on each tenant, with the change watchers on. Reports the 503s
 * after the first minute (or `--measure-from`), overall and by popularity rank, and every minute's
 * from the start. Not a test: figures.
 */
import build from '../tests/deploy/build.ts';
import { editorOf } from '../tests/deploy/editor.ts';
import { send } from '../tests/deploy/http.ts';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  edgeConfig,
  METRICS_TOKEN,
  startDocumentedMock,
  startNginx,
  startSite,
} from '../tests/deploy/stack.ts';

const at = process.argv.indexOf('--minutes');
const MINUTES = at > 0 ? Number(process.argv[at + 1]) : 6;
const option = (name: string): number | undefined => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : undefined;
};
/** `--restart-at M`: the server is stopped and started again at minute M (its disk cache kept). */
const RESTART_AT = option('--restart-at');
/** `--edge`: the readers go through the shipped nginx edge (deploy/nginx/masthead.conf). */
const EDGE = process.argv.includes('--edge');
/** `--build <dir>`: another build to start (another commit's, for a before/after). */
const BUILD = process.argv.includes('--build')
  ? process.argv[process.argv.indexOf('--build') + 1]
  : undefined;
const from = process.argv.indexOf('--measure-from');
/** The minute the 503s start to count (1: after the first minute). */
const MEASURE_FROM = from > 0 ? Number(process.argv[from + 1]) : 1;
const TENANTS = ['daily-planet', 'harbour-times', 'alpine-post'];
const PAGES_PER_TENANT = 63;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!process.argv.includes('--skip-build') && !BUILD) build();
const mock = await startDocumentedMock();
// A cold start: no disk cache from an earlier run; with `--restart-at`, the first run's cache.
const cacheDir = mkdtempSync(join(tmpdir(), 'masthead-publish-load-'));
const site = await startSite({
  mock,
  env: {
    WATCH_CHANGES: 'true',
    UPSTREAM_CACHE_DIR: RESTART_AT ? cacheDir : '',
    ...(BUILD && { MASTHEAD_OUT_DIR: BUILD }),
  },
});
// The shipped edge config, told (as behind a CDN, its own comment says) that the address in
// X-Forwarded-For is the visitor's: the readers' 200 addresses, not all of them 127.0.0.1.
const edge = EDGE
  ? await startNginx((dir, port) => {
      mkdirSync(join(dir, 'cache'));
      const shipped = readFileSync(
        new URL('../deploy/nginx/masthead.conf', import.meta.url),
        'utf8',
      );
      writeFileSync(
        join(dir, 'masthead.conf'),
        edgeConfig(shipped, port, [site.port], join(dir, 'cache')),
      );
      return `  set_real_ip_from 127.0.0.1;\n  real_ip_header X-Forwarded-For;\n  include ${dir}/masthead.conf;`;
    })
  : undefined;
const front = edge ? edge.port : site.port;

async function slugsOf(tenant: string, path: string): Promise<string[]> {
  const reply = await send(`${mock.publishingUrl}${path}`, { headers: { 'X-Tenant': tenant } });
  return (JSON.parse(reply.text) as { data: { slug: string }[] }).data.map((item) => item.slug);
}

/** Each tenant's pages, most popular first. */
const pages: { tenant: string; path: string; rank: number }[] = [];
for (const tenant of TENANTS) {
  const posts = await slugsOf(tenant, '/posts?per_page=50');
  const categories = await slugsOf(tenant, '/categories');
  const tags = await slugsOf(tenant, '/tags');
  const paths = [
    '/',
    ...posts.slice(0, 10).map((slug) => `/posts/${slug}`),
    ...categories.map((slug) => `/categories/${slug}`),
    '/rss.xml',
    ...posts.slice(10).map((slug) => `/posts/${slug}`),
    ...tags.map((slug) => `/tags/${slug}`),
    '/categories',
    '/tags',
    '/page/2',
  ].slice(0, PAGES_PER_TENANT);
  paths.forEach((path, index) => pages.push({ tenant, path, rank: index + 1 }));
}
const weights = pages.map((page) => 1 / page.rank);
const total = weights.reduce((sum, weight) => sum + weight, 0);
const pick = () => {
  let roll = Math.random() * total;
  for (const [index, weight] of weights.entries()) {
    roll -= weight;
    if (roll <= 0) return pages[index]!;
  }
  return pages[0]!;
};

const buckets = [
  [1, 10],
  [11, 40],
  [41, 63],
] as const;
const counts = buckets.map(() => ({ asked: 0, unavailable: 0 }));
/** Which pages answered 503 (after the first minute), and how the others were served. */
const refusedPaths = new Map<string, number>();
/**
 * Every minute from the start, warm-up included: asked, 503, and of the 200s the partial pages (a
 * post's list entry while its full text waits for the budget, a section's posts from the lists
 * read: stand-ins, `X-Robots-Tag: noindex`) apart from the full pages.
 */
const perMinute: { asked: number; unavailable: number; partial: number; full: number }[] = [];
/** A stand-in (src/lib/render/page-respond.ts `standIn`) is the only page of these not indexed. */
const isPartial = (headers: Record<string, string | string[] | undefined>) =>
  String(headers['x-robots-tag'] ?? '').includes('noindex');

/** The mock's calls by route (all tenants), read at every minute: where the budget went when. */
async function callsByRoute(): Promise<Record<string, number>> {
  const stats = JSON.parse((await send(`${mock.controlUrl}/stats/tenants`)).text) as Record<
    string,
    Record<string, number>
  >;
  const calls: Record<string, number> = {};
  for (const byRoute of Object.values(stats)) {
    for (const [route, n] of Object.entries(byRoute)) calls[route] = (calls[route] ?? 0) + n;
  }
  return calls;
}
const callsAt: Record<string, number>[] = [await callsByRoute()];
const began = Date.now();
const sampling = setInterval(() => {
  void callsByRoute().then((calls) => callsAt.push(calls));
}, 60_000);
let running = true;
let measuring = false;
let visitor = 0;
const readers = Array.from({ length: 4 }, async () => {
  while (running) {
    const page = pick();
    visitor = (visitor + 1) % 200;
    const reply = await send(`http://127.0.0.1:${front}${page.path}`, {
      host: edge ? `${page.tenant}.localhost:${front}` : `${page.tenant}.localhost`,
      headers: { 'X-Forwarded-For': `198.51.100.${visitor + 1}`, 'Accept-Encoding': 'br' },
    }).catch(() => undefined);
    const bucket = buckets.findIndex(([low, high]) => page.rank >= low && page.rank <= high);
    const minute = Math.floor((Date.now() - began) / 60_000);
    perMinute[minute] ??= { asked: 0, unavailable: 0, partial: 0, full: 0 };
    perMinute[minute].asked += 1;
    if (reply?.status === 503) perMinute[minute].unavailable += 1;
    else if (reply?.status === 200 && isPartial(reply.headers)) perMinute[minute].partial += 1;
    else if (reply?.status === 200) perMinute[minute].full += 1;
    if (measuring && bucket >= 0) {
      counts[bucket]!.asked += 1;
      if (reply?.status === 503) {
        counts[bucket]!.unavailable += 1;
        const key = `${page.tenant} ${page.path} (rank ${page.rank})`;
        refusedPaths.set(key, (refusedPaths.get(key) ?? 0) + 1);
      }
    }
    await pause(1000);
  }
});
const editors = await Promise.all(TENANTS.map((tenant) => editorOf(mock, tenant)));
const publishing = (async () => {
  for (let n = 0; running; n += 1) {
    await pause(30_000);
    if (running) await editors[n % editors.length]!.publish(`Load story ${Date.now()}`);
  }
})();

const restarting = (async () => {
  if (RESTART_AT === undefined) return;
  await pause(RESTART_AT * 60_000);
  await site.stop();
  await site.start();
  console.log(`restarted at minute ${RESTART_AT}`);
})();

try {
  await pause(MEASURE_FROM * 60_000);
  measuring = true;
  await pause((MINUTES - MEASURE_FROM) * 60_000);
  const rows = buckets.map(([low, high], index) => ({
    ranks: `${low}-${high}`,
    asked: counts[index]!.asked,
    '503': counts[index]!.unavailable,
    share: `${((100 * counts[index]!.unavailable) / Math.max(1, counts[index]!.asked)).toFixed(1)} %`,
  }));
  const asked = counts.reduce((sum, count) => sum + count.asked, 0);
  const unavailable = counts.reduce((sum, count) => sum + count.unavailable, 0);
  rows.push({
    ranks: 'all',
    asked,
    '503': unavailable,
    share: `${((100 * unavailable) / Math.max(1, asked)).toFixed(1)} %`,
  });
  console.table(rows);
  const percent = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;
  console.table(
    perMinute.map((row, minute) => ({
      minute: minute + 1,
      asked: row.asked,
      '503': row.unavailable,
      share: percent(row.unavailable, row.asked),
      partial: percent(row.partial, row.asked),
      full: percent(row.full, row.asked),
    })),
  );
  // The whole run, the first minute included.
  const whole = perMinute.reduce(
    (sum, row) => ({
      asked: sum.asked + row.asked,
      unavailable: sum.unavailable + row.unavailable,
    }),
    { asked: 0, unavailable: 0 },
  );
  console.log(
    `whole run: ${whole.unavailable} of ${whole.asked} requests 503 (${percent(whole.unavailable, whole.asked)})`,
  );
  // The upstream calls of each minute by route (`GET /posts?per_page=50` is the front page's pool
  // and the change watchers' look: one cached read, src/lib/reading/front-page.ts `FRONT_POOL`).
  clearInterval(sampling);
  callsAt.push(await callsByRoute());
  const routes = [...new Set(callsAt.flatMap((calls) => Object.keys(calls)))].sort();
  console.table(
    Object.fromEntries(
      routes.map((route) => [
        route,
        Object.fromEntries(
          callsAt
            .slice(1)
            .map((calls, index) => [
              `m${index + 1}`,
              (calls[route] ?? 0) - (callsAt[index]![route] ?? 0),
            ]),
        ),
      ]),
    ),
  );
  // Where the budget went: the mock's calls by endpoint, all tenants together.
  const stats = JSON.parse((await send(`${mock.controlUrl}/stats/tenants`)).text) as Record<
    string,
    Record<string, number>
  >;
  const calls: Record<string, number> = {};
  for (const byEndpoint of Object.values(stats)) {
    for (const [endpoint, n] of Object.entries(byEndpoint)) {
      const kind = endpoint.replace(/\/posts\/[^/?]+/, '/posts/:slug').replace(/\?.*/, '?…');
      calls[kind] = (calls[kind] ?? 0) + n;
    }
  }
  console.table(calls);
  const worst = [...refusedPaths].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.table(Object.fromEntries(worst));
  // The site's own view: cache results and refusals, all tenants together.
  const metrics = (
    await send(`http://127.0.0.1:${site.port}/_metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    })
  ).text;
  const sums: Record<string, number> = {};
  for (const line of metrics.split('\n')) {
    const match =
      /^(masthead_upstream_(?:cache|refused)_total)\{.*?(?:result|reason)="([^"]+)".*\} (\S+)$/.exec(
        line,
      );
    if (match)
      sums[`${match[1]} ${match[2]}`] = (sums[`${match[1]} ${match[2]}`] ?? 0) + Number(match[3]);
  }
  console.table(sums);
} finally {
  running = false;
  clearInterval(sampling);
  await Promise.all([...readers, publishing, restarting]).catch(() => undefined);
  await edge?.stop();
  await site.stop();
  await mock.close();
}
