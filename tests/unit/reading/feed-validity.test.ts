import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { rssFeed } from '../../../src/lib/reading/feeds.ts';
import { postSummary } from '../../fixtures/post.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { feedErrors, list, text, type Node } from '../../feed-rules.ts';

const tenant = buildTenant({
  name: 'Harbour & Times',
  hosts: ['www.harbour.example', 'harbour.localhost'],
});
const posts = [
  postSummary({
    author: { id: 2, name: 'Edna <Editor> & Co' },
    tags: [{ id: 3, name: 'Port', slug: 'port' }],
  }),
  postSummary({ id: 8, slug: 'no-author', author: null, published_at: null }),
  postSummary({ id: 9, slug: 'calendar', published_at: '2026-11-19' }),
];

describe('the RSS feed passes the W3C feed validator’s rules', () => {
  it('names authors with dc:creator, itself with atom:link, and writes RFC-822 dates', async () => {
    const xml = await rssFeed({ tenant, origin: 'http://localhost:4321' }, posts);
    expect(feedErrors(xml, 'https://www.harbour.example/rss.xml')).toEqual([]);
    const items = list(
      ((new XMLParser({ ignoreAttributes: false }).parse(xml) as Node).rss as Node).channel as Node,
    ).flatMap((channel) => list(channel.item));
    expect(items.map((item) => item['dc:creator'])).toEqual([
      'Edna <Editor> & Co',
      undefined,
      'Edna Editor',
    ]);
    expect(xml).not.toContain('<author>');
    expect(text(items[0]?.guid)).toBe('https://www.harbour.example/posts/ferry-timetable');
  });

  it('uses the tenant’s configured origin for the self link, not the host the request named', async () => {
    const xml = await rssFeed({ tenant, origin: 'https://evil.example' }, posts);
    expect(feedErrors(xml, 'https://www.harbour.example/rss.xml')).toEqual([]);
    expect(xml).not.toContain('evil.example');
  });

  it('leaves out control characters upstream titles, excerpts and names carry (XML cannot hold them)', async () => {
    const hostile = postSummary({
      title: 'Ferry\u0001 & <storm>\u0008',
      excerpt: 'Delays\u001F ahead',
      author: { id: 2, name: 'Edna\u0003' },
      tags: [{ id: 3, name: 'Port\u000C', slug: 'port' }],
    });
    const xml = await rssFeed({ tenant, origin: 'https://www.harbour.example' }, [hostile]);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(feedErrors(xml, 'https://www.harbour.example/rss.xml')).toEqual([]);
    const [item] = list(((new XMLParser().parse(xml) as Node).rss as Node).channel as Node).flatMap(
      (channel) => list(channel.item),
    );
    expect(item?.title).toBe('Ferry & <storm>');
    expect(item?.description).toBe('Delays ahead');
    expect(item?.['dc:creator']).toBe('Edna');
    expect(item?.category).toEqual(['News', 'Port']);
  });

  it('the check fails on what the validator reported (a name in <author>, no self link)', () => {
    const before = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
      <link>https://x.example/</link><description>D</description>
      <item><title>A</title><link>https://x.example/posts/a</link>
      <guid isPermaLink="true">https://x.example/posts/a</guid>
      <pubDate>2026-11-20T08:00:00Z</pubDate><author>Edna Editor</author></item>
      <item><title>B</title><guid>b-7</guid><dc:creator>Edna</dc:creator></item></channel></rss>`;
    expect(feedErrors(before, 'https://x.example/rss.xml')).toEqual([
      'undeclared namespace prefix dc',
      'missing atom:link rel="self"',
      'item 0: author not an e-mail',
      'item 0: pubDate 2026-11-20T08:00:00Z not RFC-822',
      'item 1: permalink guid is not an absolute URL',
    ]);
  });
});
