import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { rssFeed } from '../../../src/lib/reading/feeds.ts';
import { postSummary } from '../../fixtures/post.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

/**
 * The W3C feed validator's rules for what the site writes (issue 38): RSS `<author>` only as an
 * e-mail address, every prefixed element in a declared namespace (`dc:creator` in Dublin Core),
 * `atom:link rel="self"` naming the feed's own absolute address, RFC-822 dates, and a `guid` that
 * is a permanent link exactly when it says so.
 */
const NAMESPACES: Record<string, string> = {
  atom: 'http://www.w3.org/2005/Atom',
  dc: 'http://purl.org/dc/elements/1.1/',
  content: 'http://purl.org/rss/1.0/modules/content/',
};
const RFC822 =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}(?::\d{2})? (?:GMT|UT|[+-]\d{4}|[ECMP][SD]T|Z)$/;
const EMAIL_AUTHOR = /^[^@\s()]+@[^@\s()]+\.[^@\s()]+(?: \([^()]+\))?$/;

type Node = Record<string, unknown>;
const list = (value: unknown): Node[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => v as Node);
const text = (value: unknown): string => {
  const inner = typeof value === 'object' && value !== null ? (value as Node)['#text'] : value;
  return typeof inner === 'string' || typeof inner === 'number' ? String(inner) : '';
};

function prefixesIn(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return out;
  for (const [key, value] of Object.entries(node)) {
    const name = key.startsWith('@_') ? key.slice(2) : key;
    const prefix = /^([A-Za-z][\w.-]*):/.exec(name)?.[1];
    if (prefix && prefix !== 'xmlns' && prefix !== 'xml') out.add(prefix);
    for (const child of Array.isArray(value) ? value : [value]) prefixesIn(child, out);
  }
  return out;
}

/** The validator's errors for this feed (empty: valid), given the address it is served at. */
function feedErrors(xml: string, selfUrl: string): string[] {
  const errors: string[] = [];
  const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as Node;
  const rss = doc.rss as Node | undefined;
  if (!rss || rss['@_version'] !== '2.0') return ['not an RSS 2.0 document'];
  for (const prefix of prefixesIn(rss)) {
    const declared = rss[`@_xmlns:${prefix}`];
    if (declared === undefined) errors.push(`undeclared namespace prefix ${prefix}`);
    else if (NAMESPACES[prefix] && declared !== NAMESPACES[prefix])
      errors.push(`wrong namespace for ${prefix}: ${text(declared)}`);
  }
  const channel = rss.channel as Node;
  for (const field of ['title', 'link', 'description'])
    if (!text(channel[field]).trim()) errors.push(`channel lacks ${field}`);
  const self = list(channel['atom:link']).filter((link) => link['@_rel'] === 'self');
  if (self.length !== 1) errors.push('missing atom:link rel="self"');
  else if (self[0]?.['@_href'] !== selfUrl)
    errors.push(`self link ${String(self[0]?.['@_href'])} is not ${selfUrl}`);
  else if (self[0]['@_type'] !== 'application/rss+xml') errors.push('self link type');
  for (const [index, item] of list(channel.item).entries()) {
    if (!text(item.title) && !text(item.description)) errors.push(`item ${index}: no title`);
    for (const author of list(item.author))
      if (!EMAIL_AUTHOR.test(text(author))) errors.push(`item ${index}: author not an e-mail`);
    if (item.pubDate !== undefined && !RFC822.test(text(item.pubDate)))
      errors.push(`item ${index}: pubDate ${text(item.pubDate)} not RFC-822`);
    for (const guid of list(item.guid)) {
      const permaLink = (guid['@_isPermaLink'] ?? 'true') !== 'false';
      if (permaLink && !/^https?:\/\/[^/]+\//.test(text(guid)))
        errors.push(`item ${index}: permalink guid is not an absolute URL`);
    }
    if (item.link !== undefined && !/^https?:\/\/[^/]+\//.test(text(item.link)))
      errors.push(`item ${index}: link is not absolute`);
  }
  return errors;
}

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
    const xml = await rssFeed(
      { tenant, via: 'path' },
      new URL('http://localhost:4321/harbour/rss.xml'),
      posts,
    );
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

  it('uses the tenant’s configured public origin for the self link, not the internal address', async () => {
    const xml = await rssFeed(
      { tenant, via: 'host', origin: 'https://harbour.example.org' },
      new URL('http://10.0.0.5:4321/rss.xml'),
      posts,
    );
    expect(feedErrors(xml, 'https://harbour.example.org/rss.xml')).toEqual([]);
    expect(xml).not.toContain('10.0.0.5');
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
