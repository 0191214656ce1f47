import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { describe, expect, it } from 'vitest';
import {
  NEWS_NAMESPACE,
  NEWS_SITEMAP_LIMIT,
  SITEMAP_NAMESPACE,
  collectRecentNews,
  newsLanguage,
  newsUrlset,
  recentNews,
} from '../../../src/lib/reading/news-sitemap.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

interface NewsUrl {
  loc: string;
  'news:news': {
    'news:publication': { 'news:name': string; 'news:language': string };
    'news:publication_date': string;
    'news:title': string;
  };
}

/** Parses a news sitemap as a crawler would, failing on anything not well-formed. */
function parseNewsSitemap(xml: string) {
  expect(SyntaxValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' }).parse(
    xml,
  ) as { urlset: { '@_xmlns': string; '@_xmlns:news': string; url?: NewsUrl[] } };
  return doc.urlset;
}

/** Runs `check` with the process in time zone `zone` (Node reads `TZ` when it is set). */
function inZone(zone: string, check: () => void) {
  const saved = process.env['TZ'];
  process.env['TZ'] = zone;
  try {
    check();
  } finally {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  }
}

describe('newsLanguage', () => {
  it.each([
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['de-CH', 'de'],
    ['fr', 'fr'],
    ['zh-CN', 'zh-cn'],
    ['zh-Hans', 'zh-cn'],
    ['zh-TW', 'zh-tw'],
    ['zh-Hant-HK', 'zh-tw'],
  ])('%s → %s', (locale, language) => {
    expect(newsLanguage(locale)).toBe(language);
  });
});

describe('recentNews', () => {
  it('keeps only the last 48 hours, newest first, never future or undated posts', () => {
    const posts = [
      { id: 1, published_at: hoursAgo(47.9) },
      { id: 2, published_at: hoursAgo(1) },
      { id: 3, published_at: hoursAgo(48.1) },
      { id: 4, published_at: hoursAgo(-2) },
      { id: 5, published_at: null },
      { id: 6, published_at: 'not a date' },
    ];
    expect(recentNews(posts, NOW).map((post) => post.id)).toEqual([2, 1]);
  });

  it('reads a time without an offset as UTC, whatever zone the server runs in', () => {
    inZone('America/New_York', () => {
      const posts = [
        { id: 1, published_at: '2026-03-10 11:00:00' },
        { id: 2, published_at: '2026-03-10T10:00:00Z' },
        { id: 3, published_at: '2026-03-10 13:00:00' },
        { id: 4, published_at: '2026-03-10 09:00:00' },
      ];
      expect(recentNews(posts, NOW).map((post) => post.id)).toEqual([1, 2, 4]);
    });
  });

  it('lists at most 1,000 articles', () => {
    const posts = Array.from({ length: 1500 }, (_, i) => ({ published_at: hoursAgo(i / 100) }));
    expect(recentNews(posts, NOW)).toHaveLength(NEWS_SITEMAP_LIMIT);
  });
});

describe('collectRecentNews', () => {
  /** A newest-first upstream list of `count` posts an hour apart, pages of 50; counts the calls. */
  function upstream(count: number) {
    const calls: number[] = [];
    const all = Array.from({ length: count }, (_, i) => ({ id: i, published_at: hoursAgo(i / 2) }));
    const last = Math.ceil(count / 50);
    const readPage = (page: number) => {
      calls.push(page);
      return Promise.resolve({ items: all.slice((page - 1) * 50, page * 50), page: { last } });
    };
    return { calls, readPage };
  }

  it('stops at the first page that reaches past the window', async () => {
    const { calls, readPage } = upstream(500); // 96 posts in 48 h (half-hour spacing)
    const posts = await collectRecentNews(readPage, NOW);
    expect(posts).toHaveLength(97);
    expect(calls).toEqual([1, 2]);
  });

  it('asks one page when the site is quiet, and stops at the list’s end', async () => {
    const quiet = upstream(10);
    expect(await collectRecentNews(quiet.readPage, NOW)).toHaveLength(10);
    expect(quiet.calls).toEqual([1]);
  });

  it('keeps the newest article when none is of the last two days (the schema wants one <url>)', async () => {
    const old = [
      { id: 1, published_at: hoursAgo(24 * 7) },
      { id: 2, published_at: hoursAgo(24 * 9) },
    ];
    const readPage = () => Promise.resolve({ items: old, page: { last: 1 } });
    expect((await collectRecentNews(readPage, NOW)).map((post) => post.id)).toEqual([1]);
    const empty = () => Promise.resolve({ items: [], page: { last: 1 } });
    expect(await collectRecentNews(empty, NOW)).toEqual([]);
  });
});

describe('newsUrlset', () => {
  const publication = { name: 'Harbour & Bay <Times>', language: 'en' };

  it('is well-formed, in the sitemap and news namespaces, with every required tag', () => {
    const xml = newsUrlset(
      [
        {
          loc: 'https://news.example/posts/a?x=1&y=2',
          title: 'Ferries "cancelled" & <storms>',
          publishedAt: hoursAgo(3),
        },
      ],
      publication,
    );
    const urlset = parseNewsSitemap(xml);
    expect(urlset['@_xmlns']).toBe(SITEMAP_NAMESPACE);
    expect(urlset['@_xmlns:news']).toBe(NEWS_NAMESPACE);
    const [url] = urlset.url ?? [];
    expect(url?.loc).toBe('https://news.example/posts/a?x=1&y=2');
    expect(url?.['news:news']).toEqual({
      'news:publication': { 'news:name': 'Harbour & Bay <Times>', 'news:language': 'en' },
      'news:publication_date': hoursAgo(3),
      'news:title': 'Ferries "cancelled" & <storms>',
    });
  });

  it('writes a publication time without an offset as the UTC instant it names', () => {
    inZone('America/New_York', () => {
      const entry = {
        loc: 'https://news.example/posts/a',
        title: 'A',
        publishedAt: '2026-03-10 09:00:00',
      };
      const [url] = parseNewsSitemap(newsUrlset([entry], publication)).url ?? [];
      expect(url?.['news:news']['news:publication_date']).toBe('2026-03-10T09:00:00.000Z');
    });
  });

  it('leaves out control characters a title from upstream carries (XML cannot hold them)', () => {
    const xml = newsUrlset(
      [
        {
          loc: 'https://news.example/posts/a',
          title: 'Ferry\u0001 & <storm>\u000B',
          publishedAt: hoursAgo(1),
        },
      ],
      { name: 'Harbour\u0002', language: 'en' },
    );
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const [url] = parseNewsSitemap(xml).url ?? [];
    expect(url?.['news:news']['news:title']).toBe('Ferry & <storm>');
    expect(url?.['news:news']['news:publication']['news:name']).toBe('Harbour');
  });

  it('is well-formed without entries (the route answers 404 then: the schema wants one <url>)', () => {
    expect(parseNewsSitemap(newsUrlset([], publication)).url).toBeUndefined();
  });

  it('never holds more than 1,000 URLs', () => {
    const entries = Array.from({ length: 1200 }, (_, i) => ({
      loc: `https://news.example/posts/${i}`,
      title: `Story ${i}`,
      publishedAt: hoursAgo(1),
    }));
    expect(parseNewsSitemap(newsUrlset(entries, publication)).url).toHaveLength(1000);
  });
});
