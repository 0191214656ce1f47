import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateEncoding } from '../../../src/lib/delivery/compression.ts';
import { staticHandler } from '../../../src/lib/delivery/static-files.ts';

const CSS = 'body { color: black; }\n'.repeat(50);
let dir: string;
let base: string;
let server: http.Server;
const toApp: string[] = [];

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

function serve(compression: boolean): Promise<string> {
  const handler = staticHandler(dir, { compression });
  server = http.createServer((req, res) =>
    handler(req, res, () => {
      toApp.push(req.url ?? '');
      res.end('from the app');
    }),
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-static-'));
  mkdirSync(join(dir, '_astro'));
  writeFileSync(join(dir, '_astro', 'site.abc.css'), CSS);
  writeFileSync(join(dir, '_astro', 'site.abc.css.br'), brotliCompressSync(CSS));
  writeFileSync(join(dir, '_astro', 'site.abc.css.gz'), gzipSync(CSS));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.env'), 'SECRET=1');
  mkdirSync(join(dir, '.well-known'));
  writeFileSync(join(dir, '.well-known', 'security.txt'), 'Contact: mailto:security@example.com');
  writeFileSync(join(dir, '.well-known', '.draft'), 'not yet');
  mkdirSync(join(dir, '_astro', '.cache'));
  writeFileSync(join(dir, '_astro', '.cache', 'x.json'), '{}');
  base = await serve(true);
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the static files of a build, listed at start', () => {
  it('sends a page request to the app without looking on disk: a file added later is not served', async () => {
    writeFileSync(join(dir, 'late.html'), '<p>late</p>');
    const { body } = await get('/late.html');
    expect(body.toString()).toBe('from the app');
    expect((await get('/posts/some-story')).body.toString()).toBe('from the app');
    expect(toApp).toEqual(['/late.html', '/posts/some-story']);
  });

  it('serves brotli, gzip or the plain file as the browser accepts, with a year of caching', async () => {
    const br = await get('/_astro/site.abc.css', { 'accept-encoding': 'gzip, br' });
    expect(br.res.headers.get('content-encoding')).toBe('br');
    expect(br.res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(br.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.res.headers.get('vary')).toBe('Accept-Encoding');
    // fetch decodes the body as a browser would.
    expect(br.body.toString()).toBe(CSS);
    const gz = await get('/_astro/site.abc.css', { 'accept-encoding': 'gzip' });
    expect(gz.res.headers.get('content-encoding')).toBe('gzip');
    const plain = await get('/_astro/site.abc.css', { 'accept-encoding': 'identity' });
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.body.toString()).toBe(CSS);
    expect((await get('/favicon.svg')).res.headers.get('cache-control')).not.toContain('immutable');
  });

  it('never serves a dot file, an encoded copy by its own name or a path outside the build', async () => {
    toApp.length = 0;
    for (const path of [
      '/.env',
      '/.well-known/.draft',
      '/_astro/.cache/x.json',
      '/_astro/site.abc.css.br',
      '/_astro/../../etc/passwd',
      '/%2e%2e/x',
    ]) {
      expect((await get(path)).body.toString()).toBe('from the app');
    }
    expect(toApp).toHaveLength(6);
    // Dot files only under `.well-known`, as the web expects them there.
    expect((await get('/.well-known/security.txt')).body.toString()).toContain('Contact:');
  });
});

describe('negotiateEncoding for a static file with both copies', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    [undefined, null],
  ])('%s → %s', (accept, expected) => {
    expect(negotiateEncoding(accept, { br: true, gz: true })).toBe(expected);
  });

  it.each([
    ['gzip, br', { br: false, gz: true }, 'gzip'],
    ['gzip, br', { br: true, gz: false }, 'br'],
    ['gzip', { br: true, gz: false }, null],
    ['gzip;q=1, br;q=0.5', { br: true, gz: false }, null],
    ['br', { br: false, gz: false }, null],
  ])('%s with %o → %s', (accept, available, expected) => {
    expect(negotiateEncoding(accept, available)).toBe(expected);
  });
});
