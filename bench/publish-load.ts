/**
 * `node bench/publish-load.ts [--minutes 6] [--skip-build]` (issue 35, "one publish empties the
 * tenant"): one `npm start` without Redis and without read tokens (the default anonymous budget)
 * against the mock at its documented limits; three tenants of 63 pages each (189), asked for with a
 * Zipf popularity (rank r weighs 1/r) by visitors from many addresses, four requests a second; a
 * post published every 30 s, in turn on each tenant, with the change watchers on. Reports the 503s
 * after the first minute, overall and by popularity rank. Not a test: figures.
 */
import build from '../tests/deploy/build.ts';
import { editorOf } from '../tests/deploy/editor.ts';
import { send } from '../tests/deploy/http.ts';
import { startDocumentedMock, startSite } from '../tests/deploy/stack.ts';

const at = process.argv.indexOf('--minutes');
const MINUTES = at > 0 ? Number(process.argv[at + 1]) : 6;
const TENANTS = ['daily-planet', 'harbour-times', 'alpine-post'];
const PAGES_PER_TENANT = 63;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!process.argv.includes('--skip-build')) build();
const mock = await startDocumentedMock();
const site = await startSite({ mock, env: { WATCH_CHANGES: 'true', UPSTREAM_CACHE_DIR: '' } });

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
let running = true;
let measuring = false;
let visitor = 0;
const readers = Array.from({ length: 4 }, async () => {
  while (running) {
    const page = pick();
    visitor = (visitor + 1) % 200;
    const reply = await send(`http://127.0.0.1:${site.port}${page.path}`, {
      host: `${page.tenant}.localhost`,
      headers: { 'X-Forwarded-For': `198.51.100.${visitor + 1}`, 'Accept-Encoding': 'br' },
    }).catch(() => undefined);
    const bucket = buckets.findIndex(([low, high]) => page.rank >= low && page.rank <= high);
    if (measuring && bucket >= 0) {
      counts[bucket]!.asked += 1;
      if (reply?.status === 503) counts[bucket]!.unavailable += 1;
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

try {
  await pause(60_000);
  measuring = true;
  await pause((MINUTES - 1) * 60_000);
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
} finally {
  running = false;
  await Promise.all([...readers, publishing]).catch(() => undefined);
  await site.stop();
  await mock.close();
}
