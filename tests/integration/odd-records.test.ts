/**
 * A real newsroom's API has odd records: one post the schema cannot read leaves the feed and the
 * sitemap whole, through the site's own routes and wiring against the contract mock.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestMock, type Mock } from './harness.ts';

type Route = { GET: (context: never) => Response | Promise<Response> };
type Registry = typeof import('../../src/lib/tenants/registry.ts');

const TENANT = 'daily-planet';
const ORIGIN = 'http://daily-planet.localhost:4321';
let mock: Mock;
let registry: Registry;
let routes: Record<string, Route>;

beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 0, tokenPerMinute: 0 });
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('UPSTREAM_CACHE_DIR', '');
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../src/lib/tenants/registry.ts');
  routes = {
    '/rss.xml': await import('../../src/pages/rss.xml.ts'),
    '/sitemap-posts-1.xml': await import('../../src/pages/sitemap-posts-[chunk].xml.ts'),
  };
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

/** A route's answer, as Astro calls it for `path` on the tenant's host. */
async function get(path: string): Promise<Response> {
  const tenant = registry.getTenants().find((one) => one.id === TENANT);
  const locals = {
    tenantMatchOrNull: { tenant, via: 'host', basePath: '', pathname: path, origin: ORIGIN },
  };
  return routes[path]!.GET({
    params: { chunk: /^\/sitemap-posts-(.+)\.xml$/.exec(path)?.[1] },
    locals,
    url: new URL(path, ORIGIN),
    cache: { set: () => undefined },
  } as never);
}

/** The seed's newest published posts, newest first. */
function newest(count: number) {
  const site = mock.state.publishing.sites.get(TENANT);
  if (!site) throw new Error(`no ${TENANT} in the mock`);
  return site.posts
    .filter((post) => post.status === 'published')
    .sort((a, b) => String(b.publishedAt).localeCompare(String(a.publishedAt)))
    .slice(0, count);
}

it('one post without a title is left out of the feed and the sitemap; the others are listed', async () => {
  const [first, odd, third] = newest(3);
  if (!first || !odd || !third) throw new Error('the seed has fewer than three posts');
  (odd as { title: unknown }).title = null;
  const feed = await get('/rss.xml');
  expect(feed.status).toBe(200);
  const rss = await feed.text();
  expect(rss).toContain(`/posts/${first.slug}<`);
  expect(rss).toContain(`/posts/${third.slug}<`);
  expect(rss).not.toContain(`/posts/${odd.slug}<`);
  const sitemap = await get('/sitemap-posts-1.xml');
  expect(sitemap.status).toBe(200);
  expect(await sitemap.text()).toContain(`/posts/${first.slug}<`);
});
