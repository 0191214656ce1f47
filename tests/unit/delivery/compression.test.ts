import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  appendVary,
  isCompressible,
  maybeCompress,
  negotiateEncoding,
} from '../../../src/lib/delivery/compression.ts';

const html = `<!doctype html><title>Post</title>${'<p>Harbour news, every day.</p>'.repeat(200)}`;
const page = (headers: Record<string, string> = {}, body: string | null = html, status = 200) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers },
  });

describe('negotiateEncoding', () => {
  it.each([
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', null],
  ])('%j → %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('isCompressible', () => {
  it.each([
    ['HTML', page(), true],
    ['JSON', page({ 'Content-Type': 'application/json' }), true],
    ['RSS', page({ 'Content-Type': 'application/rss+xml' }), true],
    ['SVG', page({ 'Content-Type': 'image/svg+xml' }), true],
    ['an image', page({ 'Content-Type': 'image/png' }), false],
    ['an encoded body', page({ 'Content-Encoding': 'br' }), false],
    ['no-transform', page({ 'Cache-Control': 'public, no-transform' }), false],
    ['a tiny body', page({ 'Content-Length': '20' }, 'x'.repeat(20)), false],
    ['no body', page({}, null, 204), false],
    ['a 304', page({}, null, 304), false],
  ])('%s → %s', (_label, response, expected) => {
    expect(isCompressible(response)).toBe(expected);
  });
});

describe('maybeCompress', () => {
  it('answers brotli to a browser, with Vary and without a length', async () => {
    const response = await maybeCompress(page({ 'Content-Length': String(html.length) }), {
      method: 'GET',
      acceptEncoding: 'gzip, deflate, br',
    });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.has('content-length')).toBe(false);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBeLessThan(html.length / 4);
    expect(brotliDecompressSync(bytes).toString()).toBe(html);
  });

  it('answers gzip when that is all the client takes, keeping status and headers', async () => {
    const response = await maybeCompress(
      page({ 'Cache-Control': 'private, no-store' }, html, 404),
      {
        method: 'GET',
        acceptEncoding: 'gzip',
      },
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(html);
  });

  it('leaves the body alone for a client that takes no encoding, but says Vary', async () => {
    const response = await maybeCompress(page(), { method: 'GET', acceptEncoding: null });
    expect(response.headers.has('content-encoding')).toBe(false);
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(await response.text()).toBe(html);
  });
});

describe('maybeCompress, for responses shared caches keep', () => {
  const shared = { 'Cache-Control': 'public, max-age=0, s-maxage=300' };

  it.each([
    ['br', 'gzip, deflate, br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
  ] as const)('answers %s with its length', async (encoding, accept, decompress) => {
    const response = await maybeCompress(page(shared), { method: 'GET', acceptEncoding: accept });
    expect(response.headers.get('content-encoding')).toBe(encoding);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(decompress(bytes).toString()).toBe(html);
  });

  it('gives plain HTML its length too', async () => {
    const response = await maybeCompress(page(shared), { method: 'GET', acceptEncoding: null });
    expect(response.headers.has('content-encoding')).toBe(false);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(html)));
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('with compression off, still gives them a length, in plain text', async () => {
    const response = await maybeCompress(page(shared), {
      method: 'GET',
      acceptEncoding: 'br',
      compress: false,
    });
    expect(response.headers.has('content-encoding')).toBe(false);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(html)));
    expect(response.headers.has('vary')).toBe(false);
  });

  it('leaves a small body plain', async () => {
    const response = await maybeCompress(page(shared, '<p>short</p>'), {
      method: 'GET',
      acceptEncoding: 'br',
    });
    expect(response.headers.has('content-encoding')).toBe(false);
    expect(response.headers.get('content-length')).toBe('12');
  });

  it('keeps streaming private pages', async () => {
    const response = await maybeCompress(page({ 'Cache-Control': 'private, no-store' }), {
      method: 'GET',
      acceptEncoding: 'br',
    });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.has('content-length')).toBe(false);
  });
});

describe('appendVary', () => {
  it.each([
    [null, 'Accept-Encoding'],
    ['X-Forwarded-Host', 'X-Forwarded-Host, Accept-Encoding'],
    ['accept-encoding', 'accept-encoding'],
    ['*', '*'],
  ])('%j → %j', (current, expected) => {
    const headers = new Headers(current ? { Vary: current } : {});
    appendVary(headers, 'Accept-Encoding');
    expect(headers.get('vary')).toBe(expected);
  });
});
