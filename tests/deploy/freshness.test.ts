/**
 * News within 30 seconds and takedowns (issue 24): two servers on Redis behind the shipped nginx
 * edge, each with its change watcher on, against the mock at its documented limits. An editor
 * publishes through the publishing API; nobody purges.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESSES_PER_WINDOW } from '../../src/lib/request/secret-attempts.ts';
import { send, waitFor } from './http.ts';
import { freePort } from './processes.ts';
import type { Service } from './processes.ts';
import { startEdge, startTwoServers } from './stack.ts';
import type { Mock, TwoServers } from './stack.ts';
import { editorOf } from './editor.ts';
import { readFileSync } from 'node:fs';
import type { Editor } from './editor.ts';

const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { password: string; publishing: Record<string, { reader: { email: string } }> };

let stack: TwoServers;
let mock: Mock;
let redis: Service;
let sites: Service[];
let edge: Service;
let editor: Editor;
let startedAt: number;
const tenant = 'daily-planet';
const SECRETS = {
  'daily-planet': 'deploy-suite-purge-daily-planet-0123456789',
  'harbour-times': 'deploy-suite-purge-harbour-times-0123456789',
};
const host = () => `${tenant}.localhost:${edge.port}`;
const viaEdge = (path: string) =>
  send(`http://127.0.0.1:${edge.port}${path}`, {
    host: host(),
    headers: { 'Accept-Encoding': 'br' },
  });

beforeAll(async () => {
  const edgePort = await freePort();
  const env = {
    WATCH_CHANGES: 'true',
    PURGE_SECRETS: `daily-planet=${SECRETS['daily-planet']},harbour-times=${SECRETS['harbour-times']}`,
    EDGE_PURGE_URL: `http://127.0.0.1:${edgePort}/_edge_purge`,
  };
  stack = await startTwoServers(env);
  ({ mock, redis, sites } = stack);
  startedAt = Date.now();
  edge = await startEdge(
    sites.map((site) => site.port),
    edgePort,
  );
  editor = await editorOf(mock, tenant);
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await stack?.stop();
});

describe('a post published upstream', () => {
  it('appears on the home page through the edge without a purge', async () => {
    expect((await viaEdge('/')).status).toBe(200);
    const cached = await viaEdge('/');
    expect(cached.headers['x-cache-status']).toBe('HIT');
    // For a CDN that purges by key: the tenant's tags on the page.
    expect(String(cached.headers['surrogate-key']).split(' ')).toEqual(
      expect.arrayContaining([tenant, `${tenant}:posts`]),
    );

    const title = `Harbour bridge reopens ${Date.now()}`;
    const post = await editor.publish(title);
    const published = Date.now();
    const home = await waitFor(
      'the new post on the home page',
      async () => {
        const page = await viaEdge('/');
        return page.text.includes(title) ? page : undefined;
      },
      60_000,
    );
    expect(home.status).toBe(200);
    // The promise is 30 s; the watcher looks every 15 s here (3 tenants share 54 calls a minute).
    expect(Date.now() - published).toBeLessThan(45_000);
    const page = await viaEdge(`/posts/${post.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(title);
  }, 90_000);

  it('is gone from its page through the edge once unpublished', async () => {
    const title = `Wrong name printed ${Date.now()}`;
    const post = await editor.publish(title);
    // On the home page: the watcher has seen it (a takedown is of a story that was up).
    await waitFor(
      'the post on the home page',
      async () => ((await viaEdge('/')).text.includes(title) ? true : undefined),
      60_000,
    );
    expect((await viaEdge(`/posts/${post.slug}`)).status).toBe(200);
    // Cached at the edge now, for minutes by its headers.
    expect((await viaEdge(`/posts/${post.slug}`)).headers['x-cache-status']).toBe('HIT');
    await editor.unpublish(post.id);
    const unpublished = Date.now();
    const gone = await waitFor(
      'the post’s page to answer 404',
      async () => {
        const page = await viaEdge(`/posts/${post.slug}`);
        return page.status === 404 ? page : undefined;
      },
      60_000,
    );
    expect(gone.text).not.toContain(title);
    expect(Date.now() - unpublished).toBeLessThan(45_000);
    const home = await viaEdge('/');
    expect(home.text).not.toContain(title);
  }, 120_000);
});

describe('the change watcher', () => {
  it('runs once per tenant across both servers', async () => {
    const stats = await editor.tenantStats();
    const seconds = (Date.now() - startedAt) / 1000;
    // At most one look per 15 s per tenant, plus the first one at start-up; two watchers would double it.
    const allowed = Math.floor(seconds / 15) + 2;
    // A look is the front page's read of its pool (the newest 50): only the tests above read a
    // front page, daily-planet's, so the other two tenants' reads of it are all looks.
    const looksOf = (id: string) => stats[id]?.['GET /posts?per_page=50'] ?? 0;
    for (const id of ['daily-planet', 'harbour-times', 'alpine-post']) {
      const looks = looksOf(id);
      expect(looks, `${id}: ${looks} looks in ${Math.round(seconds)} s`).toBeGreaterThanOrEqual(1);
    }
    for (const id of ['harbour-times', 'alpine-post']) {
      const looks = looksOf(id);
      expect(looks, `${id}: ${looks} looks in ${Math.round(seconds)} s`).toBeLessThanOrEqual(
        allowed,
      );
    }
    const client = new Redis(`redis://127.0.0.1:${redis.port}`);
    try {
      const holders = await Promise.all(
        ['daily-planet', 'harbour-times', 'alpine-post'].map((id) =>
          client.get(`masthead:watch:${id}`),
        ),
      );
      expect(holders.every((holder) => typeof holder === 'string')).toBe(true);
    } finally {
      client.disconnect();
    }
  });
});

describe('POST /_purge', () => {
  const direct = (site: Service, id: string, path: string) =>
    send(`http://127.0.0.1:${site.port}${path}`, {
      host: `${id}.localhost`,
      headers: { 'Accept-Encoding': 'br' },
    });
  const edgeOf = (id: string, path: string) =>
    send(`http://127.0.0.1:${edge.port}${path}`, {
      host: `${id}.localhost:${edge.port}`,
      headers: { 'Accept-Encoding': 'br' },
    });
  const purge = (id: string, body: unknown, secret?: string) =>
    send(`http://127.0.0.1:${edge.port}/_purge`, {
      method: 'POST',
      host: `${id}.localhost:${edge.port}`,
      headers: {
        'Content-Type': 'application/json',
        ...(secret === undefined ? {} : { Authorization: `Bearer ${secret}` }),
      },
      body: JSON.stringify(body),
    });
  /** Each cache in front of the page: both servers' route caches and the edge. */
  const caches = (id: string, path: string) => [
    ...sites.map((site) => async () => (await direct(site, id, path)).headers['x-astro-cache']),
    async () => (await edgeOf(id, path)).headers['x-cache-status'],
  ];
  // Up to 100 s: the suite's own reads of the mock come from the servers' address too, so the mock may
  // answer the servers 429, and the budget then stays quiet for a full minute before the page renders.
  async function warm(id: string, path: string) {
    for (const state of caches(id, path)) {
      await waitFor(
        `${id}${path} cached`,
        async () => ((await state()) === 'HIT' ? true : undefined),
        100_000,
      );
    }
  }
  /** Until each cache has answered once from a fresh render (the first request after it dropped the page). */
  const dropped = (id: string, path: string) =>
    Promise.all(
      caches(id, path).map((state) =>
        waitFor(
          `${id}${path} dropped`,
          async () => ((await state()) !== 'HIT' ? Date.now() : undefined),
          15_000,
        ),
      ),
    );
  const firstSlug = async (id: string) => {
    const list = await send(`${mock.publishingUrl}/posts?per_page=1`, {
      headers: { 'X-Tenant': id },
    });
    return (JSON.parse(list.text) as { data: { slug: string }[] }).data[0]!.slug;
  };

  it('drops a post from both servers and the edge within 5 seconds', async () => {
    const path = `/posts/${await firstSlug(tenant)}`;
    await warm(tenant, path);
    await warm(tenant, '/');
    const asked = Date.now();
    const reply = await purge(tenant, { slug: path.slice('/posts/'.length) }, SECRETS[tenant]);
    expect(reply.status, reply.text).toBe(202);
    const times = await dropped(tenant, path);
    for (const time of times) expect(time - asked).toBeLessThan(5000);
    // The lists that may show it go too.
    const home = await dropped(tenant, '/');
    for (const time of home) expect(time - asked).toBeLessThan(5000);
  }, 60_000);

  it('shows a reader’s published comment at once on both servers and through the edge', async () => {
    const slug = await firstSlug(tenant);
    const path = `/posts/${slug}`;
    await warm(tenant, path);
    const siteHost = `${tenant}.localhost:${edge.port}`;
    const form = (address: string, fields: Record<string, string>, cookie?: string) =>
      send(`http://127.0.0.1:${edge.port}${address}`, {
        method: 'POST',
        host: siteHost,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: `http://${siteHost}`,
          ...(cookie ? { Cookie: cookie } : {}),
        },
        body: new URLSearchParams(fields).toString(),
      });
    const reader = demo.publishing[tenant]!.reader;
    const login = await form('/login?_action=login', {
      email: reader.email,
      password: demo.password,
      next: '/account',
    });
    expect(login.status).toBe(303);
    const cookie = login.cookies;
    const text = `A reader comment ${Date.now()}`;
    const posted = await form(
      `${path}?_action=postComment`,
      { post: slug, content: text, key: crypto.randomUUID().replaceAll('-', '') },
      cookie,
    );
    expect(posted.status).toBe(303);
    // The page the reader lands on says so and lists it.
    const landing = await send(`http://127.0.0.1:${edge.port}${String(posted.headers.location)}`, {
      host: siteHost,
      headers: { Cookie: posted.cookies || cookie },
    });
    expect(landing.text).toContain('Your comment has been published.');
    expect(landing.text).toContain(text);
    // Reopened, on either server and through the edge, for anyone: its cached copies went.
    for (const site of sites) {
      const page = await direct(site, tenant, path);
      expect(page.text, `server ${site.port}`).toContain(text);
    }
    await waitFor('the comment at the edge', async () =>
      (await edgeOf(tenant, path)).text.includes(text) ? true : undefined,
    );
  }, 60_000);

  it('drops every page of a tag or of everything at the edge', async () => {
    const list = await send(`${mock.publishingUrl}/posts?per_page=6`, {
      headers: { 'X-Tenant': tenant },
    });
    const posts = (JSON.parse(list.text) as { data: { slug: string }[] }).data;
    // A post the purge does not name: only the servers' address book can tell the edge about it.
    // (A `/<id>/` page on a host no tenant names is never kept there: tests/deploy/made-up-hosts.)
    const first = `/posts/${posts[2]!.slug}`;
    await warm(tenant, first);
    const asked = Date.now();
    const reply = await purge(tenant, { everything: true }, SECRETS[tenant]);
    expect(reply.status, reply.text).toBe(202);
    for (const time of await dropped(tenant, first)) expect(time - asked).toBeLessThan(5000);
  }, 300_000);

  it('changes nothing without the secret', async () => {
    const path = `/posts/${await firstSlug(tenant)}`;
    await warm(tenant, path);
    for (const secret of [undefined, 'not-the-secret', SECRETS['harbour-times']]) {
      const reply = await purge(tenant, { everything: true }, secret);
      expect(reply.status).toBe(401);
      expect(reply.headers['cache-control']).toBe('no-store');
    }
    // A purge of another site after them, seen everywhere: anything they had sent would have arrived.
    const other = `/posts/${await firstSlug('harbour-times')}`;
    await warm('harbour-times', other);
    const accepted = await purge(
      'harbour-times',
      { slug: other.slice('/posts/'.length) },
      SECRETS['harbour-times'],
    );
    expect(accepted.status).toBe(202);
    await dropped('harbour-times', other);
    for (const state of caches(tenant, path)) expect(await state()).toBe('HIT');
  }, 300_000);
  it('stops an address that keeps guessing, and only that address', async () => {
    const [first] = sites as [Service];
    const guess = (secret: string) =>
      send(`http://127.0.0.1:${first.port}/_purge`, {
        method: 'POST',
        host: `${tenant}.localhost`,
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${secret}`,
          'X-Forwarded-For': '203.0.113.66',
        },
        body: JSON.stringify({ everything: true }),
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      statuses.push((await guess(`guess-${attempt}`)).status);
    }
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const right = await guess(SECRETS[tenant]);
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // Another address (the edge's) still purges.
    expect((await purge(tenant, { slug: 'no-such-post' }, SECRETS[tenant])).status).toBe(202);
  });

  it('stops guesses of a site’s secret from many addresses, on every server', async () => {
    const site = 'harbour-times';
    const guess = (server: Service, secret: string, address: string) =>
      send(`http://127.0.0.1:${server.port}/_purge`, {
        method: 'POST',
        host: `${site}.localhost`,
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${secret}`,
          'X-Forwarded-For': address,
        },
        body: JSON.stringify({ everything: true }),
      });
    const [first, second] = sites as [Service, Service];
    for (let i = 0; i < GUESSES_PER_WINDOW; i += 1) {
      const server = i % 2 === 0 ? first : second;
      expect((await guess(server, `guess-${i}`, `198.51.100.${i + 1}`)).status).toBe(401);
    }
    const right = await guess(first, SECRETS[site], '192.0.2.1');
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guess(second, SECRETS[site], '192.0.2.2')).status).toBe(429);
    // The other site's secret still works.
    expect((await purge(tenant, { slug: 'no-such-post' }, SECRETS[tenant])).status).toBe(202);
  });
});
