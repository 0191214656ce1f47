/**
 * The shipped edge config (deploy/nginx/masthead.conf) against a stand-in origin whose headers the
 * test chooses: it caches by the origin's own Cache-Control and nothing else.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgedPaths } from '../../src/lib/freshness/edge.ts';
import { send, waitFor } from './http.ts';
import type { Reply } from './http.ts';
import { freePort } from './processes.ts';
import type { Service } from './processes.ts';
import { startEdge } from './stack.ts';

/** Requests the origin received, by path. */
const seen = new Map<string, number>();
let version = 1;
/** When set, the origin answers every request with a 503 (a server up but failing). */
let failing = false;
let originPort: number;
let origin: Server | undefined;
let edge: Service;

const HEADERS: Record<string, Record<string, string>> = {
  '/stale-if-error': {
    'Cache-Control': 'public, max-age=0, s-maxage=1, stale-if-error=600',
  },
  '/no-stale': { 'Cache-Control': 'public, max-age=0, s-maxage=1' },
  '/revalidate': {
    'Cache-Control': 'public, max-age=0, s-maxage=1, stale-while-revalidate=600',
  },
  '/public': { 'Cache-Control': 'public, max-age=0, s-maxage=600' },
  '/private': { 'Cache-Control': 'private, no-store' },
  '/no-store': { 'Cache-Control': 'no-store' },
  '/cookie': { 'Cache-Control': 'public, s-maxage=600', 'Set-Cookie': 'astro-session=abc; Path=/' },
  '/no-cache-control': {},
  '/slow': { 'Cache-Control': 'public, max-age=0, s-maxage=600' },
  '/posts/caf%C3%A9': { 'Cache-Control': 'public, max-age=0, s-maxage=600' },
  '/posts/one-host': { 'Cache-Control': 'public, max-age=0, s-maxage=600' },
  '/posts/whose': { 'Cache-Control': 'public, max-age=0, s-maxage=600' },
};

function startOrigin(): Promise<void> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    const headers = HEADERS[path] ?? {};
    // The host Masthead would pick the tenant by (behind the edge: X-Forwarded-Host).
    const site = `<p>site ${String(req.headers['x-forwarded-host'])}</p>`;
    const body = `<!doctype html><p>version ${version} of ${path}</p>${site}${'<p>filler text</p>'.repeat(200)}`;
    const reply = () => {
      if (failing) {
        res.writeHead(503, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' });
        res.end('Service unavailable');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/slow') setTimeout(reply, 300);
    else reply();
  });
  origin = server;
  return new Promise((resolve) => server.listen(originPort, '127.0.0.1', () => resolve()));
}

function stopOrigin(): Promise<void> {
  const server = origin;
  origin = undefined;
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const get = (path: string, headers: Record<string, string> = {}) =>
  send(`http://127.0.0.1:${edge.port}${path}`, { host: 'news.example.com', headers });
const status = (reply: Reply) => reply.headers['x-cache-status'];

beforeAll(async () => {
  originPort = await freePort();
  await startOrigin();
  edge = await startEdge([originPort]);
});

afterAll(async () => {
  await edge?.stop();
  await stopOrigin();
});

describe('the edge follows the origin’s Cache-Control', () => {
  it('keeps public pages for s-maxage', async () => {
    expect(status(await get('/public'))).toBe('MISS');
    expect(status(await get('/public'))).toBe('HIT');
    expect(seen.get('/public')).toBe(1);
  });

  it.each(['/private', '/no-store', '/cookie', '/no-cache-control'])(
    'never stores %s',
    async (path) => {
      await get(path);
      const again = await get(path);
      expect(status(again)).not.toBe('HIT');
      expect(seen.get(path)).toBe(2);
    },
  );

  it('answers requests with the session cookie or credentials from the origin only', async () => {
    await get('/public');
    const before = seen.get('/public') ?? 0;
    const withCookie = await get('/public', { Cookie: 'theme=dark; astro-session=abc' });
    const withAuth = await get('/public', { Authorization: 'Bearer x' });
    expect(status(withCookie)).toBe('BYPASS');
    expect(status(withAuth)).toBe('BYPASS');
    expect(seen.get('/public')).toBe(before + 2);
    // An unrelated cookie does not make a request personal.
    expect(status(await get('/public', { Cookie: 'theme=dark' }))).toBe('HIT');
  });

  it('collapses concurrent misses into one origin request', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => get('/slow')));
    for (const reply of replies) expect(reply.status).toBe(200);
    expect(seen.get('/slow')).toBe(1);
  });

  it('gzips what the origin sent uncompressed', async () => {
    const reply = await get('/public', { 'Accept-Encoding': 'gzip' });
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(reply.text).toContain('of /public');
  });

  it('refreshes within stale-while-revalidate in the background', async () => {
    version = 1;
    await get('/revalidate');
    version = 2;
    const stale = await waitFor('a stale answer while refreshing', async () => {
      const reply = await get('/revalidate');
      return status(reply) === 'STALE' || status(reply) === 'UPDATING' ? reply : undefined;
    });
    expect(stale.text).toContain('version 1');
    const fresh = await waitFor('the refreshed page', async () => {
      const reply = await get('/revalidate');
      return reply.text.includes('version 2') ? reply : undefined;
    });
    expect(status(fresh)).toBe('HIT');
  });

  it('serves stale within stale-if-error while the origin is down, and recovers', async () => {
    version = 1;
    await get('/stale-if-error');
    await get('/no-stale');
    await stopOrigin();
    try {
      const stale = await waitFor('a stale answer while the origin is down', async () => {
        const reply = await get('/stale-if-error');
        return status(reply) === 'STALE' ? reply : undefined;
      });
      expect(stale.status).toBe(200);
      expect(stale.text).toContain('version 1');
      // Without stale-if-error the origin's limit holds: an error, not an old page.
      const strict = await waitFor('the page without stale-if-error to expire', async () => {
        const reply = await get('/no-stale');
        return status(reply) !== 'HIT' ? reply : undefined;
      });
      expect(
        strict.status,
        `${String(status(strict))} ${strict.text.slice(0, 40)}`,
      ).toBeGreaterThanOrEqual(500);
    } finally {
      version = 2;
      await startOrigin();
    }
    const fresh = await waitFor('the origin’s new page', async () => {
      const reply = await get('/stale-if-error');
      return reply.text.includes('version 2') ? reply : undefined;
    });
    expect(fresh.status).toBe(200);
  });

  it('serves stale while the origin answers 5xx', async () => {
    version = 3;
    await waitFor('version 3 cached', async () =>
      (await get('/stale-if-error')).text.includes('version 3') ? true : undefined,
    );
    failing = true;
    try {
      const stale = await waitFor('a stale answer while the origin fails', async () => {
        const reply = await get('/stale-if-error');
        return status(reply) === 'STALE' ? reply : undefined;
      });
      expect(stale.status).toBe(200);
      expect(stale.text).toContain('version 3');
    } finally {
      failing = false;
    }
  });
});

describe('a purge from Masthead', () => {
  it('drops the page of a non-ASCII slug, stored under its escaped address', async () => {
    // The address Masthead purges for the post `café` (src/lib/freshness/edge.ts).
    const path = purgedPaths({ tenant: 'news', at: 0, slugs: ['café'] }).at(-1)!;
    expect(path).toBe('/posts/caf%C3%A9');
    version = 1;
    await get(path);
    expect(status(await get(path))).toBe('HIT');
    const purge = await send(`http://127.0.0.1:${edge.port}/_edge_purge${path}`, {
      method: 'PURGE',
      host: 'news.example.com',
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(purge.status).toBe(200);
    version = 2;
    const after = await get(path);
    expect(status(after)).toBe('MISS');
    expect(after.text).toContain('version 2');
  });
});

describe('another spelling of a host', () => {
  it('shares the one copy of a page, which a purge under the host drops', async () => {
    const path = '/posts/one-host';
    const spellings = [
      'news.example.com',
      'NEWS.Example.com',
      'news.example.com:8080',
      'news.example.com.',
    ];
    const viaHost = (host: string) =>
      send(`http://127.0.0.1:${edge.port}${path}`, { host, headers: { 'Accept-Encoding': 'br' } });
    version = 1;
    await viaHost(spellings[0]!);
    for (const host of spellings) expect(status(await viaHost(host)), host).toBe('HIT');
    expect(seen.get(path)).toBe(1);
    const purge = await send(`http://127.0.0.1:${edge.port}/_edge_purge${path}`, {
      method: 'PURGE',
      host: 'news.example.com',
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(purge.status).toBe(200);
    version = 2;
    for (const host of spellings.reverse()) {
      expect((await viaHost(host)).text, host).toContain('version 2');
    }
  });

  it('keeps a page under the host it was made for, whatever the request line names', async () => {
    // The absolute form names a host other than the Host header (nginx's `$host` takes the former).
    const path = '/posts/whose';
    await send(`http://127.0.0.1:${edge.port}${path}`, {
      path: `http://news.example.com${path}`,
      host: 'other.example.com',
    });
    const reply = await get(path);
    expect(reply.text).toContain('site news.example.com');
    expect(reply.text).not.toContain('other.example.com');
  });
});
