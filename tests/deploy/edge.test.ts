/**
 * The shipped edge (deploy/nginx/masthead.conf) in front of two `npm start` servers sharing one
 * Redis, against the mock at its documented limits (issue 12).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, waitFor } from './http.ts';
import type { Reply } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startEdge, startRedis, startSite } from './stack.ts';
import type { Mock } from './stack.ts';

const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as {
  password: string;
  publishing: Record<string, { subscriber: { email: string; name: string } }>;
};

const POST = '/posts/welcome-to-our-new-website';
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

let mock: Mock;
let redis: Service;
let sites: Service[];
let edge: Service;

const viaEdge = (path: string, host: string, headers: Record<string, string> = {}) =>
  send(`http://127.0.0.1:${edge.port}${path}`, {
    host,
    headers: { 'Accept-Encoding': BROWSER_ENCODINGS, ...headers },
  });
const cacheStatus = (reply: Reply) => reply.headers['x-cache-status'];

/** Requests `path` until the edge answers it from its cache (first one fills it). */
const warm = (path: string, host: string) =>
  waitFor(`${host}${path} from the edge`, async () => {
    const reply = await viaEdge(path, host);
    return reply.status === 200 && cacheStatus(reply) === 'HIT' ? reply : undefined;
  });

beforeAll(async () => {
  mock = await startDocumentedMock();
  redis = await startRedis();
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  sites = await Promise.all([startSite({ mock, redisUrl }), startSite({ mock, redisUrl })]);
  edge = await startEdge(sites.map((site) => site.port));
});

afterAll(async () => {
  await edge?.stop();
  await Promise.all((sites ?? []).map((site) => site.stop()));
  await redis?.stop();
  await mock?.close();
});

describe('a public page through the edge', () => {
  it('comes from the edge once warm, compressed', async () => {
    const first = await viaEdge(POST, 'daily-planet.localhost');
    expect(first.status).toBe(200);
    expect(cacheStatus(first)).toMatch(/MISS|HIT/);
    const hit = await warm(POST, 'daily-planet.localhost');
    expect(hit.headers['content-encoding']).toBe('br');
    expect(hit.raw.length).toBeLessThan(hit.text.length / 2);
    expect(hit.text).toContain('Daily Planet');
    // A client that takes gzip only gets gzip, and one that takes nothing gets plain HTML.
    const gzip = await waitFor('gzip copy from the edge', async () => {
      const reply = await viaEdge(POST, 'daily-planet.localhost', { 'Accept-Encoding': 'gzip' });
      return cacheStatus(reply) === 'HIT' ? reply : undefined;
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const refused = await waitFor('gzip for a client that refuses brotli', async () => {
      const reply = await viaEdge(POST, 'daily-planet.localhost', {
        'Accept-Encoding': 'br;q=0, gzip',
      });
      return cacheStatus(reply) === 'HIT' ? reply : undefined;
    });
    expect(refused.headers['content-encoding']).toBe('gzip');
    const plain = await viaEdge(POST, 'daily-planet.localhost', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain('Daily Planet');
  });

  it('never mixes two tenants on the same path', async () => {
    const planet = await warm(POST, 'daily-planet.localhost');
    const harbour = await warm(POST, 'harbour-times.localhost');
    expect(planet.text).toContain('Daily Planet');
    expect(planet.text).not.toContain('Harbour Times');
    expect(harbour.text).toContain('Harbour Times');
    expect(harbour.text).not.toContain('Daily Planet');
  });

  it('keeps no copy of a made-up subdomain of a wildcard host: the servers answer it from one copy', async () => {
    // tenants.json: daily-planet takes `*.dailyplanet.example.com`. Anyone can make up subdomains;
    // a copy each would crowd the edge and the list of addresses its purges must name.
    const hosts = ['a', 'b', 'c', 'd', 'e', 'f'].map((label) => `${label}.dailyplanet.example.com`);
    const replies = [];
    for (const host of [...hosts, ...hosts]) replies.push(await viaEdge(POST, host));
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.text).toContain('Daily Planet');
      expect(cacheStatus(reply)).not.toBe('HIT');
    }
    // Two servers: each renders the page at most once for all the subdomains.
    const rendered = replies.filter((reply) => reply.headers['x-astro-cache'] === 'MISS');
    expect(rendered.length).toBeLessThanOrEqual(2);
  });
});

describe('a public image through the edge', () => {
  it('is made once and then served from the edge to everyone, signed-in visitors included', async () => {
    const page = await viaEdge(POST, 'daily-planet.localhost', { 'Accept-Encoding': 'identity' });
    const path = /\/_img\/u\/[\w/-]+\.avif/.exec(page.text)?.[0];
    expect(path).toBeDefined();
    const first = await viaEdge(path!, 'daily-planet.localhost');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await viaEdge(path!, 'daily-planet.localhost', {
      Cookie: 'astro-session=someone',
    });
    expect(cacheStatus(again)).toBe('HIT');
    expect(again.raw.equals(first.raw)).toBe(true);
  });
});

describe('another spelling of a public image through the edge (issue 33)', () => {
  it.each([
    ['a made-up query', 'daily-planet.localhost', (p: string) => `${p}?v=2`],
    ['a bare "?"', 'daily-planet.localhost', (p: string) => `${p}?`],
    [
      'a "!" in the source',
      'daily-planet.localhost',
      (p: string) => p.replace('/u/aHR0', '/u/aHR0!'),
    ],
    ['a trailing "="', 'daily-planet.localhost', (p: string) => p.replace(/(\/u\/[\w-]+)/, '$1=')],
    ['a bare "?" under the /<id>/ prefix', 'localhost', (p: string) => `/daily-planet${p}?`],
  ])('%s: 404, never a second cached copy', async (_label, host, change) => {
    const page = await viaEdge(POST, 'daily-planet.localhost', { 'Accept-Encoding': 'identity' });
    const path = /\/_img\/u\/[\w/-]+\.avif/.exec(page.text)?.[0];
    expect(path).toBeDefined();
    for (let i = 0; i < 2; i++) {
      const spelled = change(path!);
      const reply = await send(`http://127.0.0.1:${edge.port}${spelled}`, { host, path: spelled });
      expect(reply.status).toBe(404);
      expect(reply.headers['cache-control']).not.toMatch(/immutable/);
      expect(cacheStatus(reply)).not.toBe('HIT');
    }
  });
});

describe('a signed-in visitor through the edge', () => {
  it('is never answered from the cache, and never cached for anyone else', async () => {
    const host = 'daily-planet.localhost';
    const subscriber = demo.publishing['daily-planet']!.subscriber;
    await warm(POST, host);
    const login = await send(`http://127.0.0.1:${edge.port}/login?_action=login`, {
      method: 'POST',
      host,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: `http://${host}` },
      body: new URLSearchParams({
        email: subscriber.email,
        password: demo.password,
        next: '/account',
      }).toString(),
    });
    expect(login.status).toBe(303);
    expect(login.cookies).toMatch(/astro-session=/);
    const cookie = { Cookie: `theme=dark; ${login.cookies}` };

    for (let i = 0; i < 2; i += 1) {
      const account = await viaEdge('/account', host, cookie);
      expect(account.status).toBe(200);
      expect(account.text).toContain(subscriber.name);
      expect(cacheStatus(account)).toBe('BYPASS');
      // A public page too: rendered for them, not the shared copy.
      const page = await viaEdge(POST, host, cookie);
      expect(cacheStatus(page)).toBe('BYPASS');
    }
    // Another visitor never gets the signed-in pages.
    for (const path of ['/account', POST]) {
      const anonymous = await viaEdge(path, host);
      expect(anonymous.text).not.toContain(subscriber.name);
    }
  });
});

describe('with both Masthead servers stopped', () => {
  it('serves cached pages from the edge, and recovers by itself when they return', async () => {
    const planet = await warm(POST, 'daily-planet.localhost');
    const harbour = await warm(POST, 'harbour-times.localhost');
    await Promise.all(sites.map((site) => site.stop()));

    for (const [host, before] of [
      ['daily-planet.localhost', planet],
      ['harbour-times.localhost', harbour],
    ] as const) {
      const during = await viaEdge(POST, host);
      expect(during.status).toBe(200);
      expect(cacheStatus(during)).toMatch(/HIT|STALE/);
      expect(during.text).toBe(before.text);
    }
    // A page never cached has nothing to fall back on.
    const uncached = await viaEdge('/search?q=harbour', 'harbour-times.localhost');
    expect(uncached.status).toBeGreaterThanOrEqual(500);

    await Promise.all(sites.map((site) => site.start()));
    const recovered = await waitFor('an uncached page rendered again', async () => {
      const reply = await viaEdge('/search?q=harbour', 'harbour-times.localhost');
      return reply.status === 200 ? reply : undefined;
    });
    expect(recovered.text).toContain('Harbour Times');
  });
});
