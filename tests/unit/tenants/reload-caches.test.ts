import { describe, expect, it, vi } from 'vitest';
import routeCache from '../../../src/lib/delivery/route-cache.ts';
import { applyTenantsChange } from '../../../src/lib/freshness/tenants.ts';
import { knownPosts } from '../../../src/lib/publishing/known-posts.ts';
import type { PostSummary } from '../../../src/lib/publishing/schema.ts';
import { diffTenants } from '../../../src/lib/tenants/loader.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

/**
 * What a reload of the tenants file leaves in this server's memory: the route cache's pages and
 * the posts lists showed (the real modules; only the data cache and the edge are stand-ins).
 */
const upstream = vi.hoisted(() => ({}));
vi.mock('../../../src/lib/services/clients.ts', () => ({ siteUpstream: () => upstream }));
vi.mock('../../../src/lib/freshness/bus.ts', async (original) => ({
  ...(await original<typeof import('../../../src/lib/freshness/bus.ts')>()),
  applyLocally: vi.fn(),
}));
// The route cache keys pages by the host a tenant names (`cacheHostOf`): every host used below.
vi.mock('../../../src/lib/tenants/registry.ts', async (original) => {
  const { buildTenant: tenant } = await import('../../fixtures/tenant.ts');
  const named = [
    tenant(),
    tenant({ id: 'courier', hosts: ['courier.example.com'] }),
    tenant({ id: 'portal', hosts: ['portal.example.com'] }),
    tenant({ id: 'hub', hosts: ['hub.example.com', '*.hub.example.com'] }),
    tenant({ id: 'east', hosts: ['east.hub.example.com'] }),
  ];
  return {
    ...(await original<typeof import('../../../src/lib/tenants/registry.ts')>()),
    getTenants: () => named,
  };
});
vi.mock('../../../src/lib/freshness/edge.ts', () => ({ purgeEdge: vi.fn() }));

const cache = routeCache(undefined);
const logger = { info() {}, warn() {}, error() {} };

const gazette = buildTenant();
const courier = buildTenant({ id: 'courier', name: 'Courier', hosts: ['courier.example.com'] });

const reload = (before: readonly Tenant[], after: Tenant[]) =>
  applyTenantsChange({ version: 2, reason: 'file', ...diffTenants(before, after) });

/** A page of `host` as the route cache answers it, rendered as `render` says (a 503: it failed). */
async function page(
  host: string,
  render: { status: number; tenant: string; body: string },
  path = '/',
) {
  const request = new Request(`https://${host}${path}`);
  const response = await cache.onRequest!({ request, url: new URL(request.url), logger }, () =>
    Promise.resolve(
      new Response(render.body, {
        status: render.status,
        headers:
          render.status === 200
            ? { 'CDN-Cache-Control': 'max-age=300', 'Cache-Tag': render.tenant }
            : { 'Cache-Control': 'no-store' },
      }),
    ),
  );
  return { status: response.status, body: await response.text() };
}

const failed = (tenant: string) => ({ status: 503, tenant, body: 'Busy' });

describe('a reload of the tenants file and the route cache', () => {
  it('never serves a changed tenant’s page of its old settings, even when the new render fails', async () => {
    await page('courier.example.com', { status: 200, tenant: 'courier', body: 'Courier' });
    await reload([gazette, courier], [gazette, buildTenant({ ...courier, name: 'The Courier' })]);
    expect(await page('courier.example.com', failed('courier'))).toEqual({
      status: 503,
      body: 'Busy',
    });
  });

  it('never serves the other tenant’s page on a host two tenants swapped', async () => {
    await page('gazette.example.com', { status: 200, tenant: 'gazette', body: 'Gazette' });
    await reload(
      [gazette, courier],
      [
        buildTenant({ ...gazette, hosts: ['courier.example.com'] }),
        buildTenant({ ...courier, hosts: ['gazette.example.com'] }),
      ],
    );
    expect((await page('gazette.example.com', failed('courier'))).body).not.toBe('Gazette');
  });

  it('drops every page of a removed tenant, whatever pages of others lie between them', async () => {
    const paths = ['/a', '/b', '/c', '/d', '/e'];
    for (const path of paths) {
      await page('courier.example.com', { status: 200, tenant: 'courier', body: path }, path);
      await page('gazette.example.com', { status: 200, tenant: 'gazette', body: path }, path);
    }
    await reload([gazette, courier], [gazette]);
    for (const path of paths) {
      expect((await page('courier.example.com', failed('courier'), path)).status).toBe(503);
      expect((await page('gazette.example.com', failed('gazette'), path)).body).toBe(path);
    }
  });

  it('never serves a tenant’s path-prefixed or preview page on a host another tenant now names', async () => {
    const rendered = { status: 200, tenant: 'courier', body: 'Courier' };
    await page('portal.example.com', rendered, '/courier/');
    await page('portal.example.com', rendered, '/?tenant=courier');
    const portal = buildTenant({ id: 'portal', hosts: ['portal.example.com'] });
    await reload([gazette, courier], [gazette, courier, portal]);
    const now = { status: 404, tenant: 'portal', body: 'Portal: not found' };
    expect((await page('portal.example.com', now, '/courier/')).body).toBe(now.body);
    expect((await page('portal.example.com', now, '/?tenant=courier')).body).toBe(now.body);
  });

  it('never serves a tenant’s path-prefixed page on a subdomain another tenant’s wildcard now takes', async () => {
    const rendered = { status: 200, tenant: 'courier', body: 'Courier' };
    await page('east.hub.example.com', rendered, '/courier/');
    const hub = buildTenant({ id: 'hub', hosts: ['hub.example.com', '*.hub.example.com'] });
    await reload([gazette, courier], [gazette, courier, hub]);
    const now = { status: 404, tenant: 'hub', body: 'Hub: not found' };
    expect((await page('east.hub.example.com', now, '/courier/')).body).toBe(now.body);
  });

  it('keeps a wildcard tenant’s pages when a site on one of its subdomains changes only its name', async () => {
    const hub = buildTenant({ id: 'hub', hosts: ['hub.example.com', '*.hub.example.com'] });
    const east = buildTenant({ id: 'east', hosts: ['east.hub.example.com'] });
    await page('west.hub.example.com', { status: 200, tenant: 'hub', body: 'Hub' });
    await reload([hub, east], [hub, buildTenant({ ...east, name: 'East 2' })]);
    expect(await page('west.hub.example.com', failed('hub'))).toEqual({ status: 200, body: 'Hub' });
  });

  it('keeps the copy of an unchanged tenant for a failed render', async () => {
    await page('gazette.example.com', { status: 200, tenant: 'gazette', body: 'Gazette' });
    await reload([gazette, courier], [gazette, buildTenant({ ...courier, name: 'Courier 2' })]);
    expect(await page('gazette.example.com', failed('gazette'))).toEqual({
      status: 200,
      body: 'Gazette',
    });
  });
});

describe('a reload of the tenants file and the posts lists showed', () => {
  const post = { id: 1, slug: 'old-api-story', tags: [] } as unknown as PostSummary;
  const listed = (tenant: string) =>
    knownPosts(upstream, tenant)
      .listed(Infinity)
      .map((p) => p.slug);

  it('forgets the posts of a tenant that reads another API now (no related post from the old one)', async () => {
    knownPosts(upstream, 'courier').remember([post]);
    const moved = buildTenant({
      ...courier,
      publishing: { baseUrl: 'https://other.example.com/api/v1' },
    });
    await reload([gazette, courier], [gazette, moved]);
    expect(listed('courier')).toEqual([]);
  });

  it('forgets the posts of a removed tenant: one added later with its id starts empty', async () => {
    knownPosts(upstream, 'courier').remember([post]);
    await reload([gazette, courier], [gazette]);
    expect(listed('courier')).toEqual([]);
  });

  it('keeps them for a tenant whose API stayed the same', async () => {
    knownPosts(upstream, 'courier').remember([post]);
    await reload([gazette, courier], [gazette, buildTenant({ ...courier, name: 'Courier 3' })]);
    expect(listed('courier')).toEqual(['old-api-story']);
  });
});
