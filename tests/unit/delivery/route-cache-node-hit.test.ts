import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRouteCache } from '../../../src/lib/delivery/route-cache.ts';
import { SESSION_COOKIE } from '../../../src/lib/delivery/session-store.ts';
import { send } from '../../deploy/http.ts';

// `npm start` answers a fresh route-cache hit on Node's response before Astro (scripts/start.mjs).
// A server here does what start.mjs does: `nodeHit` first, else the provider the way Astro calls it
// (with Astro's own step after it: the internal cache headers come off). Both must send the same page.

const cache = createRouteCache();
let renders = 0;
let server: Server;
let base = '';

function page(): Response {
  renders += 1;
  return new Response(`<!doctype html><title>Front page</title><p>render ${renders}</p>`, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Encoding': 'identity',
      'CDN-Cache-Control': 'max-age=60, stale-while-revalidate=600',
      'Cache-Tag': 'home,posts',
      'Cache-Control': 'public, max-age=0, s-maxage=60',
      Vary: 'Accept-Encoding',
    },
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (cache.nodeHit(req, res)) return;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) headers.set(name, String(value));
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
    });
    const logger = { info() {}, warn() {}, error() {} };
    void cache
      .onRequest({ request, url: new URL(request.url), logger }, () => Promise.resolve(page()))
      .then(async (response) => {
        response.headers.delete('CDN-Cache-Control');
        response.headers.delete('Cache-Tag');
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.restoreAllMocks());

async function get(path: string, headers: Record<string, string> = {}) {
  const { host = 'daily-planet.localhost', ...rest } = headers;
  const reply = await send(`${base}${path}`, {
    host,
    headers: { 'accept-encoding': 'gzip', ...rest },
  });
  const { date: _date, ...sent } = reply.headers;
  return { status: reply.status, headers: sent, body: reply.text };
}

describe('a route-cache hit served before Astro', () => {
  it('sends the stored page with the headers Astro sends on a hit, without rendering', async () => {
    const first = await get('/search?q=ferry&tenant=daily-planet');
    expect(first.headers['x-astro-cache']).toBe('MISS');
    const rendered = renders;
    const hit = await get('/search?tenant=daily-planet&q=ferry');
    expect(renders).toBe(rendered);
    expect(hit.body).toBe(first.body);
    expect(hit.headers).toEqual({ ...first.headers, 'x-astro-cache': 'HIT' });
    expect(hit.headers['cdn-cache-control']).toBeUndefined();
    expect(hit.headers['cache-tag']).toBeUndefined();
  });

  it('keeps pages apart by host and by the headers they vary on', async () => {
    await get('/');
    expect((await get('/')).headers['x-astro-cache']).toBe('HIT');
    const otherHost = await get('/', { host: 'harbour-times.localhost' });
    expect(otherHost.headers['x-astro-cache']).toBe('MISS');
    const brotli = await get('/', { 'accept-encoding': 'br' });
    expect(brotli.headers['x-astro-cache']).toBe('MISS');
  });

  it('shares one copy among the spellings of a host: case, port, trailing dot', async () => {
    await get('/categories');
    const rendered = renders;
    for (const host of [
      'Daily-Planet.LOCALHOST',
      'daily-planet.localhost:8080',
      'daily-planet.localhost.',
    ]) {
      expect((await get('/categories', { host })).headers['x-astro-cache'], host).toBe('HIT');
    }
    expect(renders).toBe(rendered);
  });

  it('leaves to Astro what it would not answer from the cache: other methods, other parameters', async () => {
    await get('/posts/ferry-news');
    const head = await send(`${base}/posts/ferry-news`, {
      method: 'HEAD',
      host: 'daily-planet.localhost',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(head.headers['x-astro-cache']).toBeUndefined();
    const unread = await get('/posts/ferry-news?utm_source=mail');
    expect(unread.headers['x-astro-cache']).toBeUndefined();
    // Another spelling of the address: the site redirects it to the one it writes.
    const spelt = await get('/posts/ferry%2Dnews');
    expect(spelt.headers['x-astro-cache']).toBeUndefined();
  });

  it('tells the browser of a visitor with the session cookie to keep the page no more, and still shares it', async () => {
    const session = { cookie: `theme=dark; ${SESSION_COOKIE}=abc` };
    const miss = await get('/posts/signed-in', session);
    expect(miss.headers['x-astro-cache']).toBe('MISS');
    expect(miss.headers['cache-control']).toBe('private, no-store');
    const guest = await get('/posts/signed-in');
    expect(guest.headers['x-astro-cache']).toBe('HIT');
    expect(guest.headers['cache-control']).toBe('public, max-age=0, s-maxage=60');
    const hit = await get('/posts/signed-in', session);
    expect(hit.headers).toEqual({ ...guest.headers, 'cache-control': 'private, no-store' });
    expect(hit.body).toBe(guest.body);
  });

  it('leaves a page past its max-age to Astro, which serves it stale and renders it again', async () => {
    await get('/tags/ferries');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 120_000);
    const rendered = renders;
    const late = await get('/tags/ferries');
    expect(late.headers['x-astro-cache']).toBe('STALE');
    // An edge keeps the old copy a few seconds, not a whole new s-maxage (then another while
    // stale): a taken-down or changed story would outlive this server's copy of it there.
    expect(late.headers['cache-control']).toMatch(/s-maxage=10\b/);
    await vi.waitFor(() => expect(renders).toBe(rendered + 1));
  });
});
