/**
 * `npm run bench:freshness` (issue 24): two servers on Redis behind the shipped nginx edge, change
 * watchers on, the mock at its documented limits (60 public calls a minute). An editor publishes 10
 * posts through the publishing API, one after another; a visitor reloads the home page through the
 * edge every 2 s. Reports time to visible (p50/p95), the mock's calls a minute per tenant, how long
 * an unpublished post's page takes to answer 404 without a purge, and purge propagation to both
 * servers and the edge. Not a test: figures, with the targets beside them.
 *   --skip-build   reuse dist-deploy/ (built by the deploy suite)
 */
import build from '../tests/deploy/build.ts';
import { editorOf } from '../tests/deploy/editor.ts';
import { send } from '../tests/deploy/http.ts';
import { freePort } from '../tests/deploy/processes.ts';
import { startDocumentedMock, startEdge, startRedis, startSite } from '../tests/deploy/stack.ts';

const PUBLISHES = 10;
const TENANT = 'daily-planet';
const SECRET = 'bench-purge-secret-0123456789abcdef';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};

/** Polls `check` every `everyMs` until true; the seconds it took, or NaN after `limitMs`. */
async function secondsUntil(check: () => Promise<boolean>, everyMs: number, limitMs = 120_000) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check()) return (Date.now() - started) / 1000;
    await pause(everyMs);
  }
  return Number.NaN;
}

if (!process.argv.includes('--skip-build')) build();
const mock = await startDocumentedMock();
const redis = await startRedis();
const edgePort = await freePort();
const env = {
  WATCH_CHANGES: 'true',
  EDGE_PURGE_URL: `http://127.0.0.1:${edgePort}/_edge_purge`,
  PURGE_SECRETS: `${TENANT}=${SECRET}`,
};
const redisUrl = `redis://127.0.0.1:${redis.port}`;
const sites = await Promise.all([
  startSite({ mock, redisUrl, env }),
  startSite({ mock, redisUrl, env }),
]);
const edge = await startEdge(
  sites.map((site) => site.port),
  edgePort,
);
const host = `${TENANT}.localhost:${edgePort}`;
const viaEdge = (path: string) =>
  send(`http://127.0.0.1:${edgePort}${path}`, { host, headers: { 'Accept-Encoding': 'br' } });

try {
  const editor = await editorOf(mock, TENANT);
  await viaEdge('/');
  // Calls counted from here: the watchers' first looks at start-up are not part of the minute rate.
  await send(`${mock.controlUrl}/stats`, { method: 'DELETE' });
  const started = Date.now();
  const visible: number[] = [];
  let last = { id: 0, slug: '' };
  for (let i = 1; i <= PUBLISHES; i += 1) {
    // Publishes spread over the watcher's 15 s cycle (one after another they would keep one phase).
    await pause((i * 1700) % 15_000);
    const title = `Bench story ${i} ${Date.now()}`;
    last = await editor.publish(title);
    const seconds = await secondsUntil(async () => (await viaEdge('/')).text.includes(title), 2000);
    visible.push(seconds);
    console.log(`publish ${i}: visible on the home page after ${seconds.toFixed(1)} s`);
  }
  const minutes = (Date.now() - started) / 60_000;
  const stats = await editor.tenantStats();
  const perMinute = Object.fromEntries(
    Object.entries(stats).map(([id, routes]) => [
      id,
      {
        // The watcher's look is the front page's pool read (one cached value): its looks, and the
        // front page's reads of it when no look has kept it fresh.
        poolPerMinute: +((routes['GET /posts?per_page=50'] ?? 0) / minutes).toFixed(2),
        allPerMinute: +(
          Object.entries(routes)
            .filter(([route]) => route.startsWith('GET '))
            .reduce((sum, [, n]) => sum + n, 0) / minutes
        ).toFixed(2),
      },
    ]),
  );

  // A takedown without a purge: the last story, on its page through the edge, is unpublished.
  await viaEdge(`/posts/${last.slug}`);
  await editor.unpublish(last.id);
  const gone = await secondsUntil(
    async () => (await viaEdge(`/posts/${last.slug}`)).status === 404,
    1000,
  );

  // Purge propagation: a cached post, then POST /_purge; until both servers and the edge render afresh.
  const list = await send(`${mock.publishingUrl}/posts?per_page=1`, {
    headers: { 'X-Tenant': TENANT },
  });
  const slug = (JSON.parse(list.text) as { data: { slug: string }[] }).data[0]!.slug;
  const path = `/posts/${slug}`;
  const direct = (port: number) =>
    send(`http://127.0.0.1:${port}${path}`, { host: `${TENANT}.localhost` });
  for (let warm = 0; warm < 2; warm += 1) {
    await viaEdge(path);
    for (const site of sites) await direct(site.port);
  }
  const purge = await send(`http://127.0.0.1:${edgePort}/_purge`, {
    method: 'POST',
    host,
    headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ slug }),
  });
  const purgeSeconds = await Promise.all([
    ...sites.map((site) =>
      secondsUntil(async () => (await direct(site.port)).headers['x-astro-cache'] !== 'HIT', 100),
    ),
    secondsUntil(async () => (await viaEdge(path)).headers['x-cache-status'] !== 'HIT', 100),
  ]);

  const summary = {
    publishes: PUBLISHES,
    visibleP50Seconds: quantile(visible, 0.5),
    visibleP95Seconds: quantile(visible, 0.95),
    minutes: +minutes.toFixed(2),
    callsPerMinute: perMinute,
    unpublishedNotFoundSeconds: gone,
    purgeStatus: purge.status,
    purgeSecondsServer1: purgeSeconds[0],
    purgeSecondsServer2: purgeSeconds[1],
    purgeSecondsEdge: purgeSeconds[2],
  };
  console.log('\nFreshness (targets: p50 ≤ 20 s, p95 ≤ 30 s, ≤ 4 watcher calls/min per tenant,');
  console.log('404 ≤ 30 s without a purge, purge ≤ 5 s everywhere):');
  console.log(JSON.stringify(summary, null, 2));
} finally {
  await edge.stop();
  await Promise.all(sites.map((site) => site.stop()));
  await redis.stop();
  await mock.close();
}
