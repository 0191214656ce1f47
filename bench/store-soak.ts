/**
 * `node bench/store-soak.ts [--minutes 20] [--skip-build]` (issue 35): is the shared store bounded?
 * One server on Redis against the mock at its documented limits, change watchers on; three tenants'
 * readers ask for home, posts, lists and made-up searches, strangers post forms that store nothing
 * (a logout without a session), and an editor publishes every 30 s. Every minute: Redis' keys by
 * prefix and its memory. Not a test: figures, for bench/freshness.md's "shared store" table.
 */
import { Redis } from 'ioredis';
import build from '../tests/deploy/build.ts';
import { editorOf } from '../tests/deploy/editor.ts';
import { send } from '../tests/deploy/http.ts';
import { startDocumentedMock, startRedis, startSite } from '../tests/deploy/stack.ts';

const at = process.argv.indexOf('--minutes');
const MINUTES = at > 0 ? Number(process.argv[at + 1]) : 20;
const TENANTS = ['daily-planet', 'harbour-times', 'alpine-post'];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

if (!process.argv.includes('--skip-build')) build();
const mock = await startDocumentedMock();
const redis = await startRedis();
const redisUrl = `redis://127.0.0.1:${redis.port}`;
const site = await startSite({ mock, redisUrl, env: { WATCH_CHANGES: 'true' } });
const admin = new Redis(redisUrl);

const slugs = new Map<string, string[]>();
for (const tenant of TENANTS) {
  const list = await send(`${mock.publishingUrl}/posts?per_page=50`, {
    headers: { 'X-Tenant': tenant },
  });
  slugs.set(
    tenant,
    (JSON.parse(list.text) as { data: { slug: string }[] }).data.map((p) => p.slug),
  );
}

const page = (tenant: string) => {
  const roll = Math.random();
  if (roll < 0.2) return '/';
  if (roll < 0.6) return `/posts/${pick(slugs.get(tenant) ?? [])}`;
  if (roll < 0.7) return pick(['/categories', '/tags', '/rss.xml', '/sitemap.xml']);
  return `/search?q=${Math.random().toString(36).slice(2, 8)}`;
};

/** Keys by prefix (`masthead:cache`, `masthead:session`, …). */
async function census(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const prefix = key
        .split(':')
        .slice(0, 2)
        .join(':')
        .replace(/-index$/, '-index');
      counts[prefix] = (counts[prefix] ?? 0) + 1;
    }
  } while (cursor !== '0');
  return counts;
}

const rows: Record<string, number | string>[] = [];
const status = { pages: 0, unavailable: 0, forms: 0, formsAccepted: 0 };
let running = true;
const readers = TENANTS.map(async (tenant) => {
  while (running) {
    const reply = await send(`http://127.0.0.1:${site.port}${page(tenant)}`, {
      host: `${tenant}.localhost`,
    }).catch(() => undefined);
    status.pages += 1;
    if (reply?.status === 503) status.unavailable += 1;
    if (Math.random() < 0.1) {
      const form = await send(`http://127.0.0.1:${site.port}/_actions/logout`, {
        method: 'POST',
        host: `${tenant}.localhost`,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: `http://${tenant}.localhost`,
        },
        body: '',
      }).catch(() => undefined);
      status.forms += 1;
      if (form && form.status < 400) status.formsAccepted += 1;
    }
    await pause(300);
  }
});
const editor = await editorOf(mock, TENANTS[0]!);
const publishing = (async () => {
  while (running) {
    await pause(30_000);
    if (running) await editor.publish(`Soak story ${Date.now()}`).catch(() => undefined);
  }
})();

try {
  const started = Date.now();
  for (let minute = 1; minute <= MINUTES; minute += 1) {
    await pause(started + minute * 60_000 - Date.now());
    const memory = /used_memory:(\d+)/.exec(await admin.info('memory'))?.[1] ?? '0';
    rows.push({
      minute,
      keys: await admin.dbsize(),
      ...(await census()),
      memoryMB: (Number(memory) / 1024 / 1024).toFixed(2),
      pages: status.pages,
      '503': status.unavailable,
      forms: `${status.formsAccepted}/${status.forms}`,
    });
    console.table(rows.slice(-1));
  }
  console.table(rows);
} finally {
  running = false;
  await Promise.all([...readers, publishing]);
  admin.disconnect();
  await site.stop();
  await redis.stop();
  await mock.close();
}
