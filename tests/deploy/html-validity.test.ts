import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { DEMO_TENANTS, pageTypes } from '../e2e/page-types.ts';
import { feedErrors } from '../feed-rules.ts';
import { describeErrors, vnuErrors } from '../vnu.ts';
import { send, type Reply } from './http.ts';
import type { Service } from './processes.ts';
import { startSite, type Mock } from './stack.ts';

// Every page type of the three demo tenants, as the production server sends it, through the W3C Nu
// HTML checker (issue 38): saved to a folder and checked in one run of the checker. Here, not in the
// Playwright suite: free ports, and the suite's one build serves it.
let mock: Mock;
let site: Service;

beforeAll(async () => {
  mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    host: '127.0.0.1',
    limits: { publicPerMinute: 600, tokenPerMinute: 600, lodgingPerMinute: 600 },
  });
  site = await startSite({
    mock,
    env: { PUBLISHING_PUBLIC_PER_MINUTE: '600', LODGING_PER_MINUTE: '600' },
  });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await mock?.close();
});

/** A page as a browser ends up with it: redirects (`/?page=2` → `/page/2`) followed. */
async function fetchPage(tenant: string, path: string, redirects = 3): Promise<Reply> {
  const host = `${tenant}.localhost`;
  const reply = await send(`http://127.0.0.1:${site.port}${path}`, {
    host,
    headers: { Accept: 'text/html' },
  });
  const location = reply.headers.location;
  if (reply.status >= 300 && reply.status < 400 && location && redirects > 0) {
    const next = new URL(location, `http://${host}`);
    return fetchPage(tenant, `${next.pathname}${next.search}`, redirects - 1);
  }
  return reply;
}

/** The reader of a free edition (the first edition may show a paywall): cover, a spread, last page. */
async function readerPages(tenant: string): Promise<{ name: string; path: string }[]> {
  const response = await fetch(`${mock.publishingUrl}/epaper?per_page=50`, {
    headers: { 'X-Tenant': tenant },
  });
  if (!response.ok) return [];
  const { data } = (await response.json()) as {
    data: { slug: string; is_free?: boolean; page_count?: number }[];
  };
  const free = data.find((edition) => edition.is_free);
  if (!free) return [];
  const last = free.page_count ?? 1;
  return [
    { name: 'reader-cover', path: `/epaper/${free.slug}` },
    { name: 'reader-spread', path: `/epaper/${free.slug}/page/2` },
    { name: 'reader-last', path: `/epaper/${free.slug}/page/${last}` },
  ];
}

it('every page type of every demo tenant is valid HTML to the Nu checker', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'masthead-vnu-'));
  try {
    const saved: string[] = [];
    for (const tenant of DEMO_TENANTS) {
      const types = [
        ...(await pageTypes(tenant, mock.publishingUrl)),
        ...(await readerPages(tenant.id)),
      ];
      for (const type of types) {
        const reply = await fetchPage(tenant.id, type.path);
        expect([200, 404], `${tenant.id} ${type.path}`).toContain(reply.status);
        const name = `${tenant.id}--${type.name}.html`;
        writeFileSync(join(folder, name), reply.text);
        saved.push(name);
      }
    }
    expect(saved).toEqual(
      expect.arrayContaining(['daily-planet--post.html', 'daily-planet--reader-spread.html']),
    );
    expect(describeErrors(await vnuErrors(folder))).toEqual([]);
  } finally {
    // VNU_KEEP=1 keeps the saved pages to look at (the folder is in the failure's file names).
    if (!process.env['VNU_KEEP']) rmSync(folder, { recursive: true, force: true });
  }
}, 240_000);

it('every demo tenant’s RSS feed, as served, passes the W3C feed validator’s rules', async () => {
  for (const tenant of DEMO_TENANTS) {
    const reply = await fetchPage(tenant.id, '/rss.xml');
    expect(reply.status, tenant.id).toBe(200);
    expect(reply.text, tenant.id).toContain('<dc:creator>');
    expect(feedErrors(reply.text, `http://${tenant.id}.localhost/rss.xml`), tenant.id).toEqual([]);
  }
});

it('every demo tenant’s article JSON-LD names its publisher with a raster logo the site serves', async () => {
  for (const tenant of DEMO_TENANTS) {
    const post = (await pageTypes(tenant, mock.publishingUrl)).find((type) => type.name === 'post');
    expect(post, tenant.id).toBeDefined();
    const reply = await fetchPage(tenant.id, post?.path ?? '/');
    const blocks = [
      ...reply.text.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs),
    ].map((match) => JSON.parse(match[1] ?? '{}') as Record<string, unknown>);
    const article = blocks.find((block) => block['@type'] === 'NewsArticle');
    const logo = (article?.['publisher'] as { logo?: Record<string, unknown> } | undefined)?.logo;
    expect(logo, tenant.id).toMatchObject({
      '@type': 'ImageObject',
      url: `http://${tenant.id}.localhost/logos/${tenant.id}.png`,
      height: 120,
    });
    // Google wants a raster logo it can fetch, at least 112 pixels high: the bytes are a PNG of the
    // size the JSON-LD states.
    const file = await send(`http://127.0.0.1:${site.port}${new URL(String(logo?.url)).pathname}`, {
      host: `${tenant.id}.localhost`,
    });
    expect(file.status, tenant.id).toBe(200);
    expect(file.headers['content-type'], tenant.id).toBe('image/png');
    const size = await sharp(file.raw).metadata();
    expect({ format: size.format, width: size.width, height: size.height }, tenant.id).toEqual({
      format: 'png',
      width: logo?.['width'],
      height: logo?.['height'],
    });
  }
});
