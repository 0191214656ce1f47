/**
 * `node bench/store-soak.ts [--minutes 20] [--skip-build]` (issue 35): is the shared store bounded?
 * One server on Redis against the mock at its documented limits, change watchers on; three tenants'
 * readers ask for home, posts, lists and made-up searches, strangers post forms that store nothing
 * (a logout without a session), and an editor publishes every 30 s. Twelve subscribers' devices
 * keep their cookies, sign in when signed out, comment every other visit and sign out every sixth:
 * the writes the budget's reserve is for. Every minute: Redis' keys by prefix, the data cache's
 * keys by remaining lifetime (which kinds they are, see src/lib/upstream/ttl.ts) and Redis'
 * memory. Not a test: figures, for bench/store.md.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { de } from '../src/lib/i18n/messages/de.ts';
import { en } from '../src/lib/i18n/messages/en.ts';
import { fr } from '../src/lib/i18n/messages/fr.ts';
import build from '../tests/deploy/build.ts';
import { editorOf } from '../tests/deploy/editor.ts';
import { send } from '../tests/deploy/http.ts';
import { OUT_DIR, startDocumentedMock, startRedis, startSite } from '../tests/deploy/stack.ts';

const at = process.argv.indexOf('--minutes');
const MINUTES = at > 0 ? Number(process.argv[at + 1]) : 20;
const TENANTS = ['daily-planet', 'harbour-times', 'alpine-post'];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

if (!process.argv.includes('--skip-build')) build();
const mock = await startDocumentedMock();
const redis = await startRedis();
const redisUrl = `redis://127.0.0.1:${redis.port}`;
// The server runs from its own copy of the build: a long soak outlives other benches' rebuilds.
const OWN_BUILD = `${OUT_DIR}-soak`;
rmSync(OWN_BUILD, { recursive: true, force: true });
cpSync(OUT_DIR, OWN_BUILD, { recursive: true });
const site = await startSite({
  mock,
  redisUrl,
  env: { WATCH_CHANGES: 'true', MASTHEAD_OUT_DIR: OWN_BUILD },
});
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

/** `masthead:cache` keys by remaining lifetime: searches and 404s, comments and streams, the rest. */
async function lifetimes(): Promise<Record<string, number>> {
  const counts = { 'ttl<20m': 0, 'ttl<2h': 0, 'ttl>2h': 0 };
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', 'masthead:cache:*', 'COUNT', 1000);
    cursor = next;
    const pipeline = admin.pipeline();
    for (const key of keys) pipeline.ttl(key);
    for (const [, ttl] of (await pipeline.exec()) ?? []) {
      const seconds = Number(ttl);
      if (seconds < 20 * 60) counts['ttl<20m'] += 1;
      else if (seconds < 2 * 3600) counts['ttl<2h'] += 1;
      else counts['ttl>2h'] += 1;
    }
  } while (cursor !== '0');
  return counts;
}

const demo = JSON.parse(
  readFileSync(new URL('../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { password: string; publishing: Record<string, { reader: { email: string } }> };
/** What a commenter's landing says when the comment was taken, in each interface language. */
const ACCEPTED = [en, de, fr]
  .flatMap((messages) => [messages['comments.published'], messages['comments.pending']])
  .filter((text): text is string => text !== undefined);
const writes = { signIns: 0, signInsRefused: 0, comments: 0, commentsRefused: 0 };
const refusals: string[] = [];
const form = (
  tenant: string,
  address: string,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
) =>
  send(`http://127.0.0.1:${site.port}${path}`, {
    method: 'POST',
    host: `${tenant}.localhost`,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: `http://${tenant}.localhost`,
      'X-Forwarded-For': address,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
/**
 * Twelve subscribers' devices (four per tenant, each from its own address) take turns every 20 s. A
 * device keeps its cookie like a browser: signed out, it signs in; signed in, it reads on. Every
 * other visit it comments on one of the posts the readers read, and every sixth it signs out.
 */
const jars = new Map<string, string>();
async function writer(): Promise<void> {
  for (let n = 0; running; n += 1) {
    await pause(20_000);
    if (!running) return;
    const tenant = TENANTS[n % TENANTS.length]!;
    const device = Math.floor(n / TENANTS.length) % 4;
    const address = `203.0.113.${device * TENANTS.length + (n % TENANTS.length) + 1}`;
    const jar = `${tenant}|${address}`;
    let cookie = jars.get(jar);
    const visit = Math.floor(n / (TENANTS.length * 4));
    if (cookie && visit % 6 === 5) {
      const out = await form(tenant, address, '/logout?_action=logout', {}, cookie).catch(
        () => undefined,
      );
      // Like a browser, it follows the 303 to the page that takes the form's result from the
      // session (which then ends, being empty); a soak that stops at the POST leaves one per sign-out.
      if (out?.status === 303)
        await send(`http://127.0.0.1:${site.port}${String(out.headers.location)}`, {
          host: `${tenant}.localhost`,
          headers: { Cookie: out.cookies || cookie, 'X-Forwarded-For': address },
        }).catch(() => undefined);
      if (out && out.status < 400) jars.delete(jar);
      continue;
    }
    if (!cookie) {
      writes.signIns += 1;
      const login = await form(tenant, address, '/login?_action=login', {
        email: demo.publishing[tenant]!.reader.email,
        password: demo.password,
        next: '/account',
      }).catch(() => undefined);
      // The form answers on its own page (`?posted=`), which sends a signed-in visitor on to `next`.
      const landed =
        login?.status === 303
          ? await send(`http://127.0.0.1:${site.port}${String(login.headers.location)}`, {
              host: `${tenant}.localhost`,
              headers: { Cookie: login.cookies, 'X-Forwarded-For': address },
            }).catch(() => undefined)
          : undefined;
      if (landed?.status !== 303 || !String(landed.headers.location).startsWith('/account')) {
        writes.signInsRefused += 1;
        const reason = /id="login-error-heading"[^>]*>([^<]*)/.exec(landed?.text ?? '')?.[1];
        refusals.push(`sign-in ${login?.status} → ${landed?.status}: ${reason ?? ''}`);
        continue;
      }
      cookie = landed.cookies || login!.cookies;
      jars.set(jar, cookie);
    }
    if (n % 2 === 1) continue;
    // A commenter is on the post's page first: no page, no form (a reader's 503, not a write's).
    const slug = pick(slugs.get(tenant) ?? []);
    const before = await send(`http://127.0.0.1:${site.port}/posts/${slug}`, {
      host: `${tenant}.localhost`,
      headers: { Cookie: cookie, 'X-Forwarded-For': address },
    }).catch(() => undefined);
    // A stand-in page (a cold start's partial article) is a 200 without the comment form.
    if (before?.status !== 200 || !before.text.includes('id="comment-form"')) continue;
    writes.comments += 1;
    const posted = await form(
      tenant,
      address,
      `/posts/${slug}?_action=postComment`,
      { post: slug, content: `Soak comment ${n}`, key: crypto.randomUUID().replaceAll('-', '') },
      cookie,
    ).catch(() => undefined);
    const landing =
      posted?.status === 303
        ? await send(`http://127.0.0.1:${site.port}${String(posted.headers.location)}`, {
            host: `${tenant}.localhost`,
            headers: { Cookie: posted.cookies || cookie, 'X-Forwarded-For': address },
          }).catch(() => undefined)
        : undefined;
    // In the tenant's language (alpine-post's is German).
    const accepted = ACCEPTED.some((text) => landing?.text.includes(text) === true);
    if (!accepted) {
      writes.commentsRefused += 1;
      const reason = /id="comment-error-heading"[^>]*>([^<]*)/.exec(landing?.text ?? '')?.[1];
      refusals.push(`comment ${posted?.status} → ${landing?.status}: ${reason?.trim() ?? ''}`);
    }
  }
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
const writing = writer();
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
      ...(await lifetimes()),
      memoryMB: (Number(memory) / 1024 / 1024).toFixed(2),
      pages: status.pages,
      '503': status.unavailable,
      forms: `${status.formsAccepted}/${status.forms}`,
      'sign-ins refused': `${writes.signInsRefused}/${writes.signIns}`,
      'comments refused': `${writes.commentsRefused}/${writes.comments}`,
    });
    console.table(rows.slice(-1));
  }
  console.table(rows);
  if (refusals.length > 0) console.log('refused writes:', refusals);
} finally {
  running = false;
  await Promise.all([...readers, publishing, writing]);
  admin.disconnect();
  await site.stop();
  await redis.stop();
  await mock.close();
}
