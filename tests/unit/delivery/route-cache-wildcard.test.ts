import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouteCache, onPageStored } from '../../../src/lib/delivery/route-cache.ts';
import { runInRequest } from '../../../src/lib/log/request-context.ts';
import { send } from '../../deploy/http.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// A wildcard host (`*.gazette.example.com`) takes any subdomain anyone makes up. Its pages are the
// same whatever the subdomain, so the route cache keeps one copy for them all: a stranger asking
// a.gazette…, b.gazette…, … must not push the site's real pages out, nor fill the edge's address book.

const tenants = [
  buildTenant({ hosts: ['gazette.example.com', '*.gazette.example.com'] }),
  buildTenant({ id: 'herald', hosts: ['www.gazette.example.com'] }),
];
const cache = createRouteCache({ max: 4, tenants: () => tenants });
const stored: string[] = [];
onPageStored((page) => stored.push(page.url.host));
let renders = 0;
let server: Server;
let base = '';

function page(): Response {
  renders += 1;
  return new Response(`<!doctype html><title>Gazette</title><p>render ${renders}</p>`, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'CDN-Cache-Control': 'max-age=60, stale-while-revalidate=600',
      'Cache-Tag': 'gazette',
      'Cache-Control': 'public, max-age=0, s-maxage=60, stale-if-error=86400',
      // As behind a trusted proxy (TRUST_PROXY), where the tenant may come from it.
      Vary: 'X-Forwarded-Host',
    },
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (cache.nodeHit(req, res)) return;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) headers.set(name, String(value));
    const request = new Request(`http://${req.headers.host}${req.url}`, { headers });
    const logger = { info() {}, warn() {}, error() {} };
    void runInRequest({ tenant: 'gazette', upstreamCalls: 0 }, () =>
      cache.onRequest({ request, url: new URL(request.url), logger }, () =>
        Promise.resolve(page()),
      ),
    ).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = async (path: string, host: string) => {
  const reply = await send(`${base}${path}`, {
    host,
    headers: { 'X-Forwarded-Host': `${host}:8443` },
  });
  return { cache: reply.headers['x-astro-cache'], control: reply.headers['cache-control'] };
};

describe('a wildcard host in the route cache', () => {
  it('answers every made-up subdomain from one copy, and real pages stay', async () => {
    expect((await get('/', 'gazette.example.com')).cache).toBe('MISS');
    expect((await get('/', 'www.gazette.example.com')).cache).toBe('MISS');
    expect((await get('/', 'a.gazette.example.com')).cache).toBe('MISS');
    const rendered = renders;
    for (let n = 0; n < 50; n += 1) {
      expect((await get('/', `made-up-${n}.gazette.example.com`)).cache).toBe('HIT');
    }
    expect(renders).toBe(rendered);
    expect((await get('/', 'gazette.example.com')).cache).toBe('HIT');
    expect((await get('/', 'www.gazette.example.com')).cache).toBe('HIT');
  });

  it('notes no subdomain’s address for the edge’s purges (the edge keeps no copy of it)', async () => {
    stored.length = 0;
    await get('/categories', 'x.gazette.example.com');
    await get('/categories', 'y.gazette.example.com');
    expect(stored).toEqual([]);
    await get('/categories', 'gazette.example.com');
    expect(stored).toEqual(['gazette.example.com']);
  });

  it('answers a /<id>/ page on every host no tenant names from one copy, noting none', async () => {
    stored.length = 0;
    expect((await get('/gazette/search', 'made-up-a.example.org')).cache).toBe('MISS');
    const rendered = renders;
    for (const host of ['made-up-b.example.org', '10.9.8.7', 'MADE-UP-C.example.org.']) {
      expect((await get('/gazette/search', host)).cache, host).toBe('HIT');
    }
    expect(renders).toBe(rendered);
    expect(stored).toEqual([]);
    // A named host keeps its own copy.
    expect((await get('/gazette/search', 'gazette.example.com')).cache).toBe('MISS');
  });
});
