import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dropRoutes } from '../../../src/lib/delivery/route-cache.ts';
import { purgeEdge } from '../../../src/lib/freshness/edge.ts';
import { applyLocally } from '../../../src/lib/freshness/bus.ts';
import { applyTenantsChange } from '../../../src/lib/freshness/tenants.ts';
import { forgetSettings } from '../../../src/lib/settings/settings.ts';
import { diffTenants } from '../../../src/lib/tenants/loader.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

vi.mock('../../../src/lib/delivery/route-cache.ts', () => ({
  dropRoutes: vi.fn(),
  routeTagsAt: () => new Set(),
}));
vi.mock('../../../src/lib/services/clients.ts', () => ({ siteUpstream: () => ({}) }));
vi.mock('../../../src/lib/freshness/bus.ts', async (original) => ({
  ...(await original<typeof import('../../../src/lib/freshness/bus.ts')>()),
  applyLocally: vi.fn(),
}));
vi.mock('../../../src/lib/freshness/edge.ts', () => ({ purgeEdge: vi.fn() }));

const gazette = buildTenant();
const courier = buildTenant({
  id: 'courier',
  name: 'Courier',
  hosts: ['courier.example.com', '*.courier.example.com'],
});

beforeAll(() => {
  vi.stubEnv('EDGE_PURGE_URL', 'http://127.0.0.1:8080/_edge_purge');
  forgetSettings();
});
afterAll(() => {
  vi.unstubAllEnvs();
  forgetSettings();
});

const reload = (before: readonly Tenant[], after: Tenant[]) =>
  applyTenantsChange({ version: 2, reason: 'file', ...diffTenants(before, after) });

/** Tenant ids whose pages (routes) and whose data (everything) this server dropped. */
const dropped = () => ({
  routes: vi.mocked(dropRoutes).mock.calls.map(([tags]) => tags),
  data: vi.mocked(applyLocally).mock.calls.map(([invalidation]) => invalidation.tenant),
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.clearAllMocks();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('applyTenantsChange', () => {
  it('drops a removed tenant’s pages and data here, then at the edge under its old hosts', async () => {
    await reload([gazette, courier], [gazette]);
    expect(dropped()).toEqual({ routes: [['courier']], data: ['courier'] });
    expect(vi.mocked(applyLocally).mock.calls[0]?.[0]).toMatchObject({ everything: true });
    expect(purgeEdge).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(vi.mocked(purgeEdge).mock.calls.map(([tenant]) => tenant)).toEqual([courier]);
    // Once more a moment later: a render that began before the reload may have stored its page.
    vi.advanceTimersByTime(5000);
    expect(dropped().routes).toEqual([['courier'], ['courier']]);
  });

  it('renders a renamed tenant’s pages again, keeping its data', async () => {
    await reload([gazette, courier], [gazette, buildTenant({ ...courier, name: 'The Courier' })]);
    expect(dropped()).toEqual({ routes: [['courier']], data: [] });
  });

  it('fetches the data again when the tenant’s upstream changed', async () => {
    const moved = buildTenant({
      ...courier,
      publishing: { baseUrl: 'https://other.example.com/api/v1' },
    });
    await reload([gazette, courier], [gazette, moved]);
    expect(dropped()).toEqual({ routes: [['courier']], data: ['courier'] });
  });

  it('drops the pages a wildcard tenant answered for a host an added tenant now names', async () => {
    const sports = buildTenant({ id: 'sports', hosts: ['sports.courier.example.com'] });
    await reload([gazette, courier], [gazette, courier, sports]);
    expect(dropped()).toEqual({ routes: [['courier']], data: [] });
    // The edge kept no copy of a wildcard's subdomain (src/lib/delivery/policy.ts `unshared`).
    await vi.advanceTimersByTimeAsync(1000);
    expect(purgeEdge).not.toHaveBeenCalled();
  });

  it('drops the pages a wildcard tenant answered for a host a changed tenant now names', async () => {
    const sports = buildTenant({ id: 'sports', hosts: ['sports.example.net'] });
    const moved = buildTenant({
      ...sports,
      hosts: ['sports.example.net', 'sports.courier.example.com'],
    });
    await reload([gazette, courier, sports], [gazette, courier, moved]);
    expect(dropped()).toEqual({ routes: [['sports'], ['courier']], data: [] });
  });

  it('leaves the tenants that did not change alone', async () => {
    await reload([gazette, courier], [gazette, courier]);
    vi.advanceTimersByTime(10_000);
    expect(dropped()).toEqual({ routes: [], data: [] });
    expect(purgeEdge).not.toHaveBeenCalled();
  });
});
