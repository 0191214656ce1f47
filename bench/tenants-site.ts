/**
 * `node bench/tenants-site.ts --window fixed|sliding [--tokens] [--minutes 4] [--skip-build]`
 * (issue 35, bench/tenants.md "Fifty sites on npm start"): one `npm start` serving fifty tenants
 * from `TENANTS_FILE` (copies of daily-planet behind a proxy, ./origin-tenants.ts), with a read
 * token each in `SECRETS_FILE` (`--tokens`) or none, against the mock at its documented limits
 * counting by `fixed` or `sliding` window. Readers: four pages a second from 200 addresses over the
 * fifty tenants (home, five posts, a category each; Zipf popularity over tenants); an editor
 * publishes a story every 60 s (every tenant shows it: they share the newsroom); after each, five
 * tenants' front pages are asked every second until the story is there. Prints one row: 429s from
 * the mock, readers' 503 share, news-to-front-page p95, upstream calls a minute, start-up time,
 * peak RSS. Not a test: figures.
 */
import { mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import build from '../tests/deploy/build.ts';
import { editorOf } from '../tests/deploy/editor.ts';
import { send } from '../tests/deploy/http.ts';
import { startDocumentedMock, startSite } from '../tests/deploy/stack.ts';
import { startTenantProxy, tenantsFile } from './origin-tenants.ts';

const arg = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const WINDOW = arg('--window') === 'sliding' ? 'sliding' : 'fixed';
const TOKENS = process.argv.includes('--tokens');
const MINUTES = Number(arg('--minutes') ?? 4);
const COUNT = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!process.argv.includes('--skip-build')) build();
const demo = JSON.parse(
  readFileSync(new URL('../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { password: string; publishing: Record<string, { reader: { email: string } }> };

const mock = await startDocumentedMock();
const proxy = await startTenantProxy(mock.publishingUrl);
const api = (path: string, init: Parameters<typeof send>[1] = {}) =>
  send(`${mock.publishingUrl}${path}`, {
    ...init,
    headers: { 'X-Tenant': 'daily-planet', 'Content-Type': 'application/json', ...init.headers },
  });

// One read token per tenant (each sign-in is a new token of the newsroom's account).
const tokens: string[] = [];
if (TOKENS) {
  for (let n = 0; n < COUNT; n += 1) {
    const reply = await api('/auth/login', {
      method: 'POST',
      body: JSON.stringify({
        email: demo.publishing['daily-planet']!.reader.email,
        password: demo.password,
      }),
    });
    tokens.push((JSON.parse(reply.text) as { data: { token: string } }).data.token);
  }
}
const slugs = (
  JSON.parse((await api('/posts?per_page=5')).text) as { data: { slug: string }[] }
).data.map((post) => post.slug);
const category = (JSON.parse((await api('/categories')).text) as { data: { slug: string }[] })
  .data[0]!.slug;
const editor = await editorOf(mock, 'daily-planet');
// The window under test, and fresh counts: the set-up's calls are not the site's.
await send(`${mock.controlUrl}/limits`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ window: WINDOW }),
});

const dir = mkdtempSync(join(tmpdir(), 'masthead-tenants-site-'));
const tenantsPath = join(dir, 'tenants.json');
writeFileSync(
  tenantsPath,
  tenantsFile(readFileSync(new URL('../tenants.json', import.meta.url), 'utf8'), COUNT),
);
const secretsPath = join(dir, 'secrets.env');
writeFileSync(
  secretsPath,
  tokens.map((token, n) => `t${n}__PUBLISHING_READ_TOKEN=${token}\n`).join(''),
);
chmodSync(secretsPath, 0o600);

const callsBefore = (
  JSON.parse((await send(`${mock.controlUrl}/stats`)).text) as { publishing: { total: number } }
).publishing.total;
let publishes = 0;
const starting = Date.now();
const site = await startSite({
  mock,
  env: {
    TENANTS_FILE: tenantsPath,
    SECRETS_FILE: secretsPath,
    PUBLISHING_BASE_URL: proxy.url,
    WATCH_CHANGES: 'true',
    // Addresses are many here: the documented share per visitor.
    UPSTREAM_VISITOR_SHARE: '',
  },
});
const startUpSeconds = (Date.now() - starting) / 1000;
const began = Date.now();

const paths = ['/', ...slugs.map((slug) => `/posts/${slug}`), `/categories/${category}`];
const weights = Array.from({ length: COUNT }, (_, n) => 1 / (n + 1));
const total = weights.reduce((sum, weight) => sum + weight, 0);
const pickTenant = () => {
  let roll = Math.random() * total;
  for (const [index, weight] of weights.entries()) {
    roll -= weight;
    if (roll <= 0) return index;
  }
  return 0;
};

let running = true;
const counts = { asked: 0, unavailable: 0 };
let visitor = 0;
const readers = Array.from({ length: 4 }, async () => {
  while (running) {
    const tenant = pickTenant();
    const path = paths[Math.floor(Math.random() * paths.length)]!;
    visitor = (visitor + 1) % 200;
    const reply = await send(`http://127.0.0.1:${site.port}${path}`, {
      host: `t${tenant}.localhost`,
      headers: { 'X-Forwarded-For': `198.51.100.${visitor + 1}` },
    }).catch(() => undefined);
    counts.asked += 1;
    if (reply?.status === 503) counts.unavailable += 1;
    await pause(1000);
  }
});

/** Seconds from each publish to the story on each sampled tenant's front page. */
const delays: number[] = [];
const SAMPLED = [0, 10, 20, 30, 40];
const newsroom = (async () => {
  for (let n = 0; running; n += 1) {
    await pause(60_000 - ((Date.now() - began) % 60_000));
    if (!running) return;
    const title = `Bench story ${n} ${Date.now()}`;
    const published = Date.now();
    await editor.publish(title);
    publishes += 1;
    await Promise.all(
      SAMPLED.map(async (tenant) => {
        while (running && Date.now() - published < 120_000) {
          const home = await send(`http://127.0.0.1:${site.port}/`, {
            host: `t${tenant}.localhost`,
            headers: { 'X-Forwarded-For': `192.0.2.${tenant + 1}` },
          }).catch(() => undefined);
          if (home?.text.includes(title)) {
            delays.push((Date.now() - published) / 1000);
            return;
          }
          await pause(1000);
        }
      }),
    );
  }
})();

const peakRss = () => {
  const status = readFileSync(`/proc/${site.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

try {
  await pause(MINUTES * 60_000);
  running = false;
  const stats = JSON.parse((await send(`${mock.controlUrl}/stats`)).text) as {
    publishing: { total: number; rateLimited: { total: number } };
  };
  const sorted = [...delays].sort((a, b) => a - b);
  const p95 = sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)];
  const row = {
    window: WINDOW,
    tokens: TOKENS ? 'a token each' : 'none',
    '429s': stats.publishing.rateLimited.total,
    'readers 503': `${((100 * counts.unavailable) / Math.max(1, counts.asked)).toFixed(1)} % of ${counts.asked}`,
    'news p95 s': p95 === undefined ? 'not seen' : p95.toFixed(0),
    'news seen': `${delays.length} of ${SAMPLED.length * Math.max(1, MINUTES - 1)}`,
    // The site's calls only: not the set-up's, not the editor's.
    'upstream calls/min': ((stats.publishing.total - callsBefore - publishes) / MINUTES).toFixed(0),
    'start-up s': startUpSeconds.toFixed(1),
    'peak RSS MB': peakRss().toFixed(0),
  };
  console.table([row]);
  console.log(JSON.stringify(row));
} finally {
  running = false;
  await Promise.all([...readers, newsroom]).catch(() => undefined);
  await site.stop();
  await proxy.close();
  await mock.close();
}
