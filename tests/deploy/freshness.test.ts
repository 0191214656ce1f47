/**
 * News within 30 seconds and takedowns (issue 24): two servers on Redis behind the shipped nginx
 * edge, each with its change watcher on, against the mock at its documented limits. An editor
 * publishes through the publishing API; nobody purges.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, waitFor } from './http.ts';
import { freePort } from './processes.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startEdge, startRedis, startSite } from './stack.ts';
import type { Mock } from './stack.ts';
import { editorOf } from './editor.ts';
import type { Editor } from './editor.ts';

let mock: Mock;
let redis: Service;
let sites: Service[];
let edge: Service;
let editor: Editor;
let startedAt: number;
const tenant = 'daily-planet';
const host = () => `${tenant}.localhost:${edge.port}`;
const viaEdge = (path: string) =>
  send(`http://127.0.0.1:${edge.port}${path}`, {
    host: host(),
    headers: { 'Accept-Encoding': 'br' },
  });

beforeAll(async () => {
  mock = await startDocumentedMock();
  redis = await startRedis();
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  const edgePort = await freePort();
  const env = {
    WATCH_CHANGES: 'true',
    EDGE_PURGE_URL: `http://127.0.0.1:${edgePort}/_edge_purge`,
  };
  sites = await Promise.all([
    startSite({ mock, redisUrl, env }),
    startSite({ mock, redisUrl, env }),
  ]);
  startedAt = Date.now();
  edge = await startEdge(
    sites.map((site) => site.port),
    edgePort,
  );
  editor = await editorOf(mock, tenant);
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await Promise.all((sites ?? []).map((site) => site.stop()));
  await redis?.stop();
  await mock?.close();
});

describe('a post published upstream', () => {
  it('appears on the home page through the edge without a purge', async () => {
    expect((await viaEdge('/')).status).toBe(200);
    const cached = await viaEdge('/');
    expect(cached.headers['x-cache-status']).toBe('HIT');

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
    for (const id of ['daily-planet', 'harbour-times', 'alpine-post']) {
      const looks = stats[id]?.['GET /posts?per_page=12'] ?? 0;
      expect(looks, `${id}: ${looks} looks in ${Math.round(seconds)} s`).toBeGreaterThanOrEqual(1);
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
