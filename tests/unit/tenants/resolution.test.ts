import { describe, expect, it } from 'vitest';
import { normalizeHost, resolveTenant, tenantHref } from '../../../src/lib/tenants/resolution.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenants = [
  buildTenant({ hosts: ['gazette.example.com', '*.gazette.example.com'] }),
  buildTenant({
    id: 'herald',
    name: 'Herald',
    hosts: ['herald.localhost', 'www.gazette.example.com'],
  }),
];

function resolve(url: string, extra: { origin?: string; forcedTenantId?: string } = {}) {
  return resolveTenant({ url: new URL(url), ...extra }, tenants);
}

describe('tenant resolution', () => {
  it.each([
    ['exact host', 'http://gazette.example.com/', 'gazette', 'host'],
    ['host with port and upper case', 'http://HERALD.localhost:4321/posts/x', 'herald', 'host'],
    ['wildcard host', 'http://news.gazette.example.com/', 'gazette', 'host'],
    ['deep wildcard host', 'http://a.b.gazette.example.com/', 'gazette', 'host'],
    ['exact host before wildcard', 'http://www.gazette.example.com/', 'herald', 'host'],
    ['path prefix', 'http://localhost:4321/gazette/posts/hello', 'gazette', 'path'],
    ['query parameter', 'http://localhost:4321/posts/hello?tenant=herald', 'herald', 'query'],
  ])('resolves by %s', (_case, url, id, via) => {
    const match = resolve(url);
    expect(match?.tenant.id).toBe(id);
    expect(match?.via).toBe(via);
  });

  it('strips the path prefix for routing and remembers it for links', () => {
    const match = resolve('http://localhost/gazette/posts/hello?page=2');
    expect(match?.pathname).toBe('/posts/hello');
    expect(match?.basePath).toBe('/gazette');
    expect(resolve('http://localhost/gazette')?.pathname).toBe('/');
  });

  it.each([
    ['an unknown host', 'http://evil.example.net/'],
    ['the bare wildcard domain', 'http://example.com/'],
    ['localhost with no prefix', 'http://localhost:4321/'],
    ['an unknown prefix', 'http://localhost:4321/nobody/posts'],
    ['an unknown ?tenant=', 'http://localhost:4321/?tenant=nobody'],
  ])('resolves no tenant for %s', (_case, url) => {
    expect(resolve(url)).toBeNull();
  });

  it('the most specific wildcard wins, whatever the order of tenants.json', () => {
    const wide = buildTenant({ id: 'regional', hosts: ['regional.example.com', '*.example.com'] });
    const narrow = buildTenant({
      id: 'sport',
      hosts: ['sport.example.com', '*.sport.example.com'],
    });
    for (const order of [
      [wide, narrow],
      [narrow, wide],
    ]) {
      const at = (url: string) => resolveTenant({ url: new URL(url) }, order)?.tenant.id;
      expect(at('http://live.sport.example.com/')).toBe('sport');
      expect(at('http://a.b.sport.example.com/')).toBe('sport');
      expect(at('http://news.example.com/')).toBe('regional');
    }
  });

  it('a configured host wins over a prefix naming another tenant', () => {
    expect(resolve('http://herald.localhost/gazette/')?.tenant.id).toBe('herald');
  });

  it('picks the host of the public origin, not of the request URL', () => {
    expect(resolve('http://10.0.0.5/', { origin: 'https://gazette.example.com' })?.tenant.id).toBe(
      'gazette',
    );
    expect(
      resolve('http://gazette.example.com/', { origin: 'http://evil.example.net' }),
    ).toBeNull();
  });

  it('single-tenant mode always picks the configured tenant', () => {
    expect(resolve('http://anything.example/', { forcedTenantId: 'herald' })?.via).toBe('single');
  });

  it('normalizes hosts', () => {
    expect(normalizeHost('News.Example.com.:443')).toBe('news.example.com');
    expect(normalizeHost('a.example, b.example')).toBe('a.example');
  });

  it('builds links that stay inside a prefix or keep the preview query', () => {
    const path = resolve('http://localhost/gazette/')!;
    expect(tenantHref(path, '/posts/a?page=2#c')).toBe('/gazette/posts/a?page=2#c');
    expect(tenantHref(path, '/')).toBe('/gazette');
    expect(tenantHref(path, '/_img/u/aHR0/800/x.avif')).toBe('/gazette/_img/u/aHR0/800/x.avif');
    expect(tenantHref(path, '')).toBe('/gazette');
    const query = resolve('http://localhost/?tenant=herald')!;
    expect(tenantHref(query, '/search?q=x')).toBe('/search?q=x&tenant=herald');
    const host = resolve('http://herald.localhost/')!;
    expect(tenantHref(host, '/tags/a')).toBe('/tags/a');
    expect(tenantHref(host, '')).toBe('/');
    expect(tenantHref(query, '/tags/a')).toBe('/tags/a?tenant=herald');
    // A query is written out the same way whichever way the tenant was found.
    expect(tenantHref(path, '/login?signed-out')).toBe('/gazette/login?signed-out=');
    expect(tenantHref(host, '/search?q=a b')).toBe('/search?q=a+b');
  });

  it.each([
    'http://unknown.example/%/',
    'http://unknown.example/%E0%A4%A/x',
    'http://unknown.example/a%25b/',
  ])('treats a malformed or unknown first segment as no tenant, without throwing: %s', (url) => {
    expect(resolve(url)).toBeNull();
  });

  it('carries the public origin for absolute URLs', () => {
    const match = resolve('http://10.0.0.5/', { origin: 'https://gazette.example.com' });
    expect(match?.origin).toBe('https://gazette.example.com');
    expect(resolve('http://gazette.example.com:4321/')?.origin).toBe(
      'http://gazette.example.com:4321',
    );
  });
});
