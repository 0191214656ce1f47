/**
 * A tenant moved to another publishing or lodging API by a reload of the tenants file, with the
 * site's own wiring (services/clients.ts, the registry, the reload handling of freshness/tenants.ts)
 * against two contract mocks and without Redis: what the old API sent is never shown for the new
 * one, not while the new one answers and not when it fails (the read cache's error grace).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock } from '../../mock/index.ts';
import type { Tenant } from '../../src/lib/tenants/schema.ts';
import { ctl, demo, type Mock } from './harness.ts';

type Clients = typeof import('../../src/lib/services/clients.ts');
type Registry = typeof import('../../src/lib/tenants/registry.ts');

const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const dir = mkdtempSync(join(tmpdir(), 'masthead-reload-'));
const file = join(dir, 'tenants.json');

let a: Mock;
let b: Mock;
let clients: Clients;
let registry: Registry;

/** The repository's tenants file with harbour-times reading `mock`'s APIs (the others read A's). */
function writeTenants(mock: Mock): void {
  const text = readFileSync(new URL('../../tenants.json', import.meta.url), 'utf8');
  type Entry = { id: string; publishing: object; lodging?: object };
  const { tenants } = JSON.parse(text) as { tenants: Entry[] };
  for (const tenant of tenants) {
    const api = tenant.id === 'harbour-times' ? mock : a;
    tenant.publishing = { ...tenant.publishing, baseUrl: api.publishingUrl };
    if (tenant.lodging) tenant.lodging = { ...tenant.lodging, baseUrl: api.lodgingUrl };
  }
  writeFileSync(file, JSON.stringify({ tenants }));
}

const harbour = (): Tenant =>
  registry.getTenants().find((tenant) => tenant.id === 'harbour-times')!;

/** What a reader sees: the titles of the newest stories, or that the page failed. */
const stories = (tenant: Tenant) =>
  clients
    .publishingFor(tenant)
    .listPosts({ perPage: 5 })
    .then(
      (page) => page.items.map((post) => post.title),
      () => 'failed',
    );

/** What a guest sees: the hotel's name, or that the booking step failed. */
const hotel = (tenant: Tenant) =>
  clients
    .bookingServiceFor(tenant)
    .property(HARBOUR_VIEW)
    .then(
      (place) => place.name,
      () => 'failed',
    );

beforeAll(async () => {
  const free = { publishingPort: 0, lodgingPort: 0, controlPort: 0 };
  // Two APIs with different stories (another seed) and, on A, another name for the hotel.
  [a, b] = await Promise.all([startMock({ ...free, seed: 42 }), startMock({ ...free, seed: 7 })]);
  a.state.lodging.properties.find((place) => place.id === HARBOUR_VIEW)!.name = 'Old API Inn';
  writeTenants(a);
  vi.stubEnv('TENANTS_FILE', file);
  vi.stubEnv('TENANTS_WATCH', 'false');
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('UPSTREAM_CACHE_DIR', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', demo.lodging['harbour-hotels']!.fullToken);
  registry = await import('../../src/lib/tenants/registry.ts');
  clients = await import('../../src/lib/services/clients.ts');
  const { followTenantReloads } = await import('../../src/lib/freshness/tenants.ts');
  followTenantReloads();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all([a.close(), b.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('a tenant moved to another API by a reload of the tenants file', () => {
  it('never shows the old API’s stories or hotel, when the new API fails or once it answers', async () => {
    const old = { stories: await stories(harbour()), hotel: await hotel(harbour()) };
    expect(old.hotel).toBe('Old API Inn');

    await ctl.faults(b, { service: 'publishing', down: true });
    await ctl.faults(b, { service: 'lodging', down: true });
    writeTenants(b);
    expect(registry.tenantRegistry().reload('file').status).toBe('changed');
    expect({ stories: await stories(harbour()), hotel: await hotel(harbour()) }).toEqual({
      stories: 'failed',
      hotel: 'failed',
    });

    await ctl.clearFaults(b);
    const moved = { stories: await stories(harbour()), hotel: await hotel(harbour()) };
    expect(moved.stories).not.toEqual(old.stories);
    expect(moved.hotel).not.toBe('Old API Inn');
  }, 60_000);
});
