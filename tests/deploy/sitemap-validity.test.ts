import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { DEMO_TENANTS } from '../e2e/page-types.ts';
import { describeXsd, sitemapMessages } from '../xsd.ts';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startSite, type Mock } from './stack.ts';

// The sitemap index, every sitemap it lists and the news sitemap of the three demo tenants, as the
// production server sends them, against the sitemaps.org and Google News schemas (issue 38).
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
  site = await startSite({ mock, env: { PUBLISHING_PUBLIC_PER_MINUTE: '600' } });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await mock?.close();
});

async function fetchXml(tenant: string, path: string): Promise<string> {
  const reply = await send(`http://127.0.0.1:${site.port}${path}`, {
    host: `${tenant}.localhost`,
    headers: { Accept: 'application/xml' },
  });
  expect(reply.status, `${tenant} ${path}`).toBe(200);
  return reply.text;
}

const locations = (xml: string): string[] =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname);

it('every demo tenant’s sitemap index, sitemaps and news sitemap validate against the schemas', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'masthead-xsd-'));
  try {
    const saved: { path: string; body: string }[] = [];
    const save = (tenant: string, path: string, body: string) => {
      const file = join(folder, `${tenant}--${path.replace(/^\//, '')}`);
      writeFileSync(file, body);
      saved.push({ path: file, body });
    };
    for (const tenant of DEMO_TENANTS) {
      const index = await fetchXml(tenant.id, '/sitemap.xml');
      save(tenant.id, '/sitemap.xml', index);
      const listed = locations(index);
      // The index names the pages, the news sitemap and at least one chunk of posts.
      expect(listed, tenant.id).toEqual(
        expect.arrayContaining(['/sitemap-pages.xml', '/news-sitemap.xml', '/sitemap-posts-1.xml']),
      );
      for (const path of listed) save(tenant.id, path, await fetchXml(tenant.id, path));
    }
    // Something to check in each: URLs in every sitemap, news entries in the news sitemaps.
    for (const file of saved) expect(file.body, file.path).toContain('<loc>');
    expect(saved.filter((file) => file.body.includes('<news:news>'))).toHaveLength(
      DEMO_TENANTS.length,
    );
    expect(describeXsd(await sitemapMessages(saved))).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);

it('the schema check fails a sitemap crawlers would reject', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'masthead-xsd-'));
  try {
    const good = await fetchXml(DEMO_TENANTS[0]?.id ?? '', '/news-sitemap.xml');
    // A date crawlers cannot read, and a news entry without its publication.
    const bad = good
      .replace(/<news:publication_date>[^<]*</, '<news:publication_date>yesterday<')
      .replace(/<news:publication>.*?<\/news:publication>/, '');
    expect(bad).not.toBe(good);
    const file = join(folder, 'bad.xml');
    writeFileSync(file, bad);
    const messages = describeXsd(await sitemapMessages([{ path: file, body: bad }])).join('\n');
    expect(messages).toContain("'yesterday'");
    expect(messages).toMatch(/news:publication/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
