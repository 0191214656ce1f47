/**
 * Several servers sharing Redis each read the tenants file when it changes (a watch, the bus, a
 * `SIGHUP`) and each drop a removed or changed site's pages here; the edge is asked to drop them by
 * one of them only: every server's purges name the same addresses (the book in Redis).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetSettings } from '../../src/lib/settings/settings.ts';
import { diffTenants } from '../../src/lib/tenants/loader.ts';
import { closeRedis } from '../../src/lib/upstream/redis.ts';
import { buildTenant } from '../fixtures/tenant.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

const purged = vi.hoisted(() => [] as string[]);
/** The purges each server would send a second after it reloaded, sent when the test says. */
const sending = vi.hoisted(() => [] as (() => Promise<number>)[]);

vi.mock('../../src/lib/freshness/edge.ts', () => ({
  purgeEdge: (tenant: { id: string }) => {
    purged.push(tenant.id);
    return Promise.resolve(1);
  },
}));
vi.mock('../../src/lib/delivery/route-cache.ts', () => ({
  dropRoutes: () => undefined,
  routeTagsAt: () => new Set(),
  invalidateRoutes: () => Promise.resolve(),
}));
vi.mock('../../src/lib/services/clients.ts', () => ({
  siteUpstream: () => ({ cache: { invalidate: () => undefined } }),
}));
vi.mock('../../src/lib/publishing/known-posts.ts', () => ({ forgetTenantPosts: () => undefined }));

type Server = typeof import('../../src/lib/freshness/tenants.ts') & {
  forgetSettings: () => void;
};

const gazette = buildTenant();
const courier = buildTenant({ id: 'courier', name: 'Courier', hosts: ['courier.example.com'] });

let redis: RedisServer;
/** Two servers' copies of the module (each process is its own instance on the bus). */
const servers: Server[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  vi.stubEnv('EDGE_PURGE_URL', 'http://127.0.0.1:9/_edge_purge');
  forgetSettings();
  for (let n = 0; n < 2; n += 1) {
    vi.resetModules();
    // Each server's own bus (its own id on Redis), sending its purges at once, not a second later.
    const bus = await vi.importActual<typeof import('../../src/lib/freshness/bus.ts')>(
      '../../src/lib/freshness/bus.ts',
    );
    vi.doMock('../../src/lib/freshness/bus.ts', () => ({
      ...bus,
      purgeEdgeSoon: (purge: () => Promise<number>) => sending.push(purge),
    }));
    servers.push({
      ...(await import('../../src/lib/freshness/tenants.ts')),
      ...(await import('../../src/lib/settings/settings.ts')),
    });
  }
});
afterAll(async () => {
  await closeRedis();
  await redis.stop();
  vi.unstubAllEnvs();
  forgetSettings();
});

/** Each of `servers` applies the same reload; the purges they would send then. */
async function reloadOn(
  on: Server[],
  before: ReturnType<typeof buildTenant>[],
  after: typeof before,
) {
  purged.length = 0;
  forgetSettings();
  for (const server of on) {
    server.forgetSettings();
    await server.applyTenantsChange({ version: 2, reason: 'file', ...diffTenants(before, after) });
  }
  // A moment later (a second in the servers), all at once.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await Promise.all(sending.splice(0).map((purge) => purge()));
  return [...purged];
}
const reloadOnEvery = (before: ReturnType<typeof buildTenant>[], after: typeof before) =>
  reloadOn(servers, before, after);

describe('edge purges after a reload of the tenants file', () => {
  it('are sent by each server without Redis (no other server can be told)', async () => {
    vi.stubEnv('REDIS_URL', '');
    expect(await reloadOnEvery([gazette, courier], [gazette])).toEqual(['courier', 'courier']);
  });

  it('are sent by one server of those sharing Redis', async () => {
    vi.stubEnv('REDIS_URL', redis.url);
    const renamed = buildTenant({ ...courier, name: 'The Courier' });
    expect(await reloadOnEvery([gazette, courier], [gazette, renamed])).toEqual(['courier']);
    // The next change is purged again.
    const again = buildTenant({ ...courier, name: 'Courier Daily' });
    expect(await reloadOnEvery([gazette, renamed], [gazette, again])).toEqual(['courier']);
    expect(await reloadOnEvery([gazette, again], [gazette])).toEqual(['courier']);
  });

  it('are sent again by a server that reloads the change after another purged it', async () => {
    vi.stubEnv('REDIS_URL', redis.url);
    const renamed = buildTenant({ ...courier, name: 'The Late Courier' });
    const [first, late] = servers as [Server, Server];
    expect(await reloadOn([first], [gazette, courier], [gazette, renamed])).toEqual(['courier']);
    // Its copy of the file came later: the edge may have fetched its old pages since the purge.
    expect(await reloadOn([late], [gazette, courier], [gazette, renamed])).toEqual(['courier']);
  });
});
