/**
 * Sitemaps of a tenant that has no posts yet, through the site's own routes and wiring against the
 * contract mock: the index lists only sitemaps that hold a `<url>` (the sitemaps.org schema wants
 * one at least), an empty posts chunk or news sitemap answers 404, and what is listed validates.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeXsd, sitemapMessages } from '../xsd.ts';
import { startTestMock, type Mock } from './harness.ts';

type Route = { GET: (context: never) => Response | Promise<Response> };
type Registry = typeof import('../../src/lib/tenants/registry.ts');

const TENANT = 'daily-planet';
const ORIGIN = 'http://daily-planet.localhost:4321';
let mock: Mock;
let registry: Registry;
let routes: Record<string, Route>;

beforeAll(async () => {
  mock = await startTestMock();
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('UPSTREAM_CACHE_DIR', '');
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../src/lib/tenants/registry.ts');
  routes = {
    '/sitemap.xml': await import('../../src/pages/sitemap.xml.ts'),
    '/sitemap-pages.xml': await import('../../src/pages/sitemap-pages.xml.ts'),
    '/news-sitemap.xml': await import('../../src/pages/news-sitemap.xml.ts'),
    '/sitemap-posts-1.xml': await import('../../src/pages/sitemap-posts-[chunk].xml.ts'),
    '/robots.txt': await import('../../src/pages/robots.txt.ts'),
  };
  // A new site: nothing published yet.
  const site = mock.state.publishing.sites.get(TENANT);
  if (!site) throw new Error(`no ${TENANT} in the mock`);
  site.posts = [];
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

/** A sitemap route's answer, as Astro calls it for `path` on the tenant's host. */
async function get(path: string): Promise<Response> {
  const route = /^\/sitemap-posts-/.test(path) ? '/sitemap-posts-1.xml' : path;
  const tenant = registry.getTenants().find((one) => one.id === TENANT);
  const locals = {
    tenantMatchOrNull: { tenant, via: 'host', basePath: '', pathname: path, origin: ORIGIN },
  };
  const chunk = /^\/sitemap-posts-(.+)\.xml$/.exec(path)?.[1];
  return routes[route]!.GET({
    params: { chunk },
    locals,
    url: new URL(path, ORIGIN),
    cache: { set: () => undefined },
  } as never);
}

it('a tenant without posts gets an index of valid sitemaps only; the empty ones are not found', async () => {
  const index = await get('/sitemap.xml');
  expect(index.status).toBe(200);
  const indexXml = await index.text();
  const listed = [...indexXml.matchAll(/<loc>([^<]*)<\/loc>/g)].map(
    (match) => new URL(match[1] ?? '').pathname,
  );
  expect(listed).toEqual(['/sitemap-pages.xml']);
  // robots.txt names no sitemap that is not found.
  const robots = await (await get('/robots.txt')).text();
  const named = [...robots.matchAll(/^Sitemap: (.*)$/gm)].map((m) => new URL(m[1] ?? '').pathname);
  expect(named).toEqual(['/sitemap.xml']);
  for (const empty of ['/sitemap-posts-1.xml', '/news-sitemap.xml']) {
    const answer = await get(empty);
    expect(answer.status, empty).toBe(404);
    expect(await answer.text(), empty).not.toContain('<urlset');
  }
  const folder = mkdtempSync(join(tmpdir(), 'masthead-xsd-'));
  try {
    const files = [{ path: join(folder, 'sitemap.xml'), body: indexXml }];
    for (const path of listed) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      files.push({ path: join(folder, path.slice(1)), body: await answer.text() });
    }
    for (const file of files) writeFileSync(file.path, file.body);
    expect(describeXsd(await sitemapMessages(files))).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);
