/**
 * Laravel's `simplePaginate` answers a list without `total` or `last_page`, saying only whether a
 * next page exists (the mock's `simplePaginate` switch). The site still reads such a list to its
 * end: every post sitemap is listed and every booking page is read.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { ctl, demo, freshUpstream, type Mock } from './harness.ts';
import { lodgingTestClient } from './operations.ts';

type Route = { GET: (context: never) => Response | Promise<Response> };
type Registry = typeof import('../../src/lib/tenants/registry.ts');

const TENANT = 'daily-planet';
const ORIGIN = 'http://daily-planet.localhost:4321';
let mock: Mock;
let registry: Registry;
let routes: Record<string, Route>;

beforeAll(async () => {
  // More published posts than one sitemap holds (1000).
  mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    postsPerTenant: 1300,
    limits: { publicPerMinute: 0, tokenPerMinute: 0, lodgingPerMinute: 0 },
  });
  await ctl.faults(mock, { service: 'publishing', simplePaginate: true });
  await ctl.faults(mock, { service: 'lodging', simplePaginate: true });
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('UPSTREAM_CACHE_DIR', '');
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../src/lib/tenants/registry.ts');
  routes = {
    '/sitemap.xml': await import('../../src/pages/sitemap.xml.ts'),
    '/sitemap-posts-1.xml': await import('../../src/pages/sitemap-posts-[chunk].xml.ts'),
  };
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

/** A sitemap route's answer, as Astro calls it for `path` on the tenant's host. */
async function get(path: string): Promise<Response> {
  const chunk = /^\/sitemap-posts-(.+)\.xml$/.exec(path)?.[1];
  const tenant = registry.getTenants().find((one) => one.id === TENANT);
  const locals = {
    tenantMatchOrNull: { tenant, via: 'host', basePath: '', pathname: path, origin: ORIGIN },
  };
  return routes[chunk ? '/sitemap-posts-1.xml' : path]!.GET({
    params: { chunk },
    locals,
    url: new URL(path, ORIGIN),
    cache: { set: () => undefined },
  } as never);
}

const locs = async (answer: Response) =>
  [...(await answer.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');

it('the sitemap index lists every post sitemap, and the last one holds the oldest posts', async () => {
  const published = mock.state.publishing.sites
    .get(TENANT)
    ?.posts.filter((post) => post.status === 'published');
  expect(published?.length).toBeGreaterThan(1000);
  const listed = (await locs(await get('/sitemap.xml'))).map((loc) => new URL(loc).pathname);
  expect(listed).toEqual(expect.arrayContaining(['/sitemap-posts-1.xml', '/sitemap-posts-2.xml']));
  expect(listed).not.toContain('/sitemap-posts-3.xml');
  const second = await get('/sitemap-posts-2.xml');
  expect(second.status).toBe(200);
  expect((await locs(second)).length).toBe((published?.length ?? 0) - 1000);
}, 60_000);

it('a booking list is read page by page to its last page', async () => {
  const account = demo.lodging['harbour-hotels'];
  if (!account) throw new Error('demo account missing');
  const client = lodgingTestClient({
    accountKey: 'harbour-hotels',
    baseUrl: mock.lodgingUrl,
    upstream: freshUpstream().up,
    token: account.fullToken,
  });
  const accountId = mock.state.lodging.tokens.get(account.fullToken)?.accountId;
  const all = mock.state.lodging.bookings.filter((one) => one.accountId === accountId);
  expect(all.length).toBeGreaterThan(2);
  const ids: unknown[] = [];
  for (let page = 1, last = 1; page <= last; page += 1) {
    const list = await client.listBookings({ page, perPage: 2 });
    ids.push(...list.items.map((booking) => booking.id));
    last = list.page.last;
  }
  expect(ids).toHaveLength(all.length);
});
