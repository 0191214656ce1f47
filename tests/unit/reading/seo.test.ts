import { describe, expect, it } from 'vitest';
import { absoluteUrl, describe as describeText, jsonLd } from '../../../src/lib/reading/seo.ts';
import { primaryHost } from '../../../src/lib/tenants/resolution.ts';
import { intervalLabel } from '../../../src/lib/reading/plans.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import {
  postSitemapCount,
  sitemapIndex,
  upstreamPagesForChunk,
  urlset,
} from '../../../src/lib/reading/sitemap.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  hosts: ['*.gazette.example', 'www.gazette.example', 'gazette.localhost'],
  publishing: { baseUrl: 'https://api.example/api/v1' },
});

describe('canonical origins', () => {
  it('uses the host the visitor came by when it is one of the tenant’s exact names', () => {
    expect(absoluteUrl({ tenant, origin: 'https://www.gazette.example' }, '/posts/a')).toBe(
      'https://www.gazette.example/posts/a',
    );
  });

  it('never a host matched by a wildcard: the primary (first exact) host', () => {
    expect(primaryHost(tenant)).toBe('www.gazette.example');
    expect(absoluteUrl({ tenant, origin: 'https://evil.gazette.example' }, '/posts/a')).toBe(
      'https://www.gazette.example/posts/a',
    );
  });

  it('uses the primary host for path prefixes and previews on another host', () => {
    expect(absoluteUrl({ tenant, origin: 'http://evil.example:8080' }, '/posts/a')).toBe(
      'https://www.gazette.example/posts/a',
    );
  });

  it('keeps http and the port for local demo hosts', () => {
    const local = { ...tenant, hosts: ['gazette.localhost'] };
    expect(absoluteUrl({ tenant: local, origin: 'http://localhost:4321' }, '/')).toBe(
      'http://gazette.localhost:4321/',
    );
  });
});

describe('structured data and descriptions', () => {
  it('cannot close its script element', () => {
    const text = jsonLd({ headline: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual({ headline: '</script><script>alert(1)</script>' });
  });

  it('turns HTML into a short plain description on a word boundary', () => {
    expect(describeText('<p>Hello <b>world</b></p>')).toBe('Hello world');
    const long = describeText(`<p>${'word '.repeat(100)}</p>`, 50);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('writes what the HTML escapes as the characters themselves (the page escapes them once)', () => {
    // A post without an excerpt: its description is cut from the sanitized content.
    expect(
      describeText('<p>Fish &amp; chips: it’s back &lt;soon&gt;, &quot;the&quot; best</p>'),
    ).toBe('Fish & chips: it’s back <soon>, "the" best');
    expect(describeText('<p>Write &amp;lt; for &lt;</p>')).toBe('Write &lt; for <');
  });

  it('keeps a plain excerpt’s angle brackets that open no tag', () => {
    expect(describeText('Lows <0°C tonight, and >50% of roads icy')).toBe(
      'Lows <0°C tonight, and >50% of roads icy',
    );
  });

  it.each([
    ['month', 'per month'],
    ['Yearly', 'per year'],
    // An interval no dictionary knows is shown as the API sent it, never with an English "per".
    ['fortnight', 'fortnight'],
  ])('labels interval %s as %s', (interval, label) => {
    expect(intervalLabel(interval, createI18n('en', 'UTC').t)).toBe(label);
  });

  it('labels intervals in the tenant’s language', () => {
    expect(intervalLabel('month', createI18n('de-CH', 'Europe/Zurich').t)).toBe('pro Monat');
  });
});

describe('sitemaps', () => {
  it('escapes URLs and writes lastmod in ISO form', () => {
    const xml = urlset([
      { loc: 'https://x.example/posts/a&b', lastmod: '2026-11-20T08:30:00+01:00' },
    ]);
    expect(xml).toContain('<loc>https://x.example/posts/a&amp;b</loc>');
    expect(xml).toContain('<lastmod>2026-11-20T07:30:00.000Z</lastmod>');
  });

  it('splits posts into chunks and maps a chunk to upstream pages', () => {
    // No posts, no post sitemap: an empty urlset fails the schema (the index lists the pages only).
    expect(postSitemapCount(0)).toBe(0);
    expect(postSitemapCount(1000)).toBe(1);
    expect(postSitemapCount(120_001)).toBe(121);
    expect(upstreamPagesForChunk(2, 50)).toEqual(Array.from({ length: 20 }, (_, i) => 21 + i));
    expect(sitemapIndex(['https://x.example/sitemap-posts-1.xml'])).toContain('<sitemapindex');
  });
});
