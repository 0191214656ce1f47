import { describe, expect, it } from 'vitest';
import { postSchema, streamSchema } from '../../../src/lib/publishing/schema.ts';
import {
  breadcrumbLd,
  newsArticleLd,
  organizationLd,
  postDescription,
} from '../../../src/lib/reading/seo.ts';
import { streamLd } from '../../../src/lib/streams/seo.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

/**
 * Google's structured-data requirements (issue 38): every property Google lists as required, and
 * the recommended ones the data allows, for articles, breadcrumbs, the organisation and streams.
 */
const ORIGIN = 'https://www.gazette.example';
const ABSOLUTE = /^https:\/\/www\.gazette\.example\//;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const withLogo = buildTenant({
  theme: {
    colors: { primary: '#123456', accent: '#abcdef' },
    logo: { src: '/logos/gazette.svg', alt: 'Gazette', width: 600, height: 120 },
  },
});
const withoutLogo = buildTenant();

const post = postSchema.parse({
  id: 7,
  title: 'Ferry timetable changes for the winter',
  slug: 'ferry-timetable',
  excerpt: 'Fewer crossings from November.',
  content: '<p>Fewer crossings.</p>',
  published_at: '2026-11-20T08:00:00Z',
  updated_at: '2026-11-21T09:30:00Z',
  author: { id: 2, name: 'Edna Editor' },
  category: { id: 1, name: 'News', slug: 'news' },
  tags: [{ id: 3, name: 'Port', slug: 'port' }],
});

describe('Organization', () => {
  it('has a name, its home address and the configured logo on the tenant’s origin', () => {
    expect(organizationLd(withLogo, ORIGIN)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'NewsMediaOrganization',
      name: 'Gazette',
      url: `${ORIGIN}/`,
      logo: {
        '@type': 'ImageObject',
        url: `${ORIGIN}/logos/gazette.svg`,
        width: 600,
        height: 120,
      },
    });
  });

  it('has no logo where the tenant configures none', () => {
    expect(organizationLd(withoutLogo, ORIGIN)).not.toHaveProperty('logo');
  });
});

describe('NewsArticle', () => {
  const canonical = `${ORIGIN}/posts/ferry-timetable`;
  const images = [`${ORIGIN}/_img/a/16x9.jpg`, `${ORIGIN}/_img/a/4x3.jpg`];
  const ld = newsArticleLd(post, withLogo, canonical, ORIGIN, images);

  it('has Google’s recommended properties: headline, image, dates with a zone, author', () => {
    expect(ld['@type']).toBe('NewsArticle');
    expect(ld.headline).toBe(post.title);
    expect(String(ld.headline).length).toBeLessThanOrEqual(110);
    expect(ld.image).toEqual(images);
    expect(ld.datePublished).toMatch(ISO_DATE);
    expect(ld.dateModified).toMatch(ISO_DATE);
    expect(ld.author).toEqual([{ '@type': 'Person', name: 'Edna Editor' }]);
    expect(ld.mainEntityOfPage).toBe(canonical);
  });

  it('dates the API sent without an offset (Laravel’s `Y-m-d H:i:s`) as UTC instants, with their zone', () => {
    const local = postSchema.parse({
      ...post,
      published_at: '2026-11-20 08:00:00',
      updated_at: '2026-11-21T09:30:00',
    });
    const dated = newsArticleLd(local, withLogo, canonical, ORIGIN);
    expect(dated.datePublished).toBe('2026-11-20T08:00:00.000Z');
    expect(dated.dateModified).toBe('2026-11-21T09:30:00.000Z');
    const unreadable = newsArticleLd(
      postSchema.parse({ ...post, updated_at: 'soon' }),
      withLogo,
      canonical,
      ORIGIN,
    );
    expect(unreadable).not.toHaveProperty('dateModified');
  });

  it('describes the article with the page’s meta description (from its text when the excerpt is empty), or not at all', () => {
    expect(ld.description).toBe('Fewer crossings from November.');
    const noExcerpt = postSchema.parse({ ...post, excerpt: '' });
    const fromText = newsArticleLd(noExcerpt, withLogo, canonical, ORIGIN);
    expect(fromText.description).toBe('Fewer crossings.');
    expect(fromText.description).toBe(postDescription(noExcerpt));
    const empty = newsArticleLd(
      postSchema.parse({ ...post, excerpt: '', content: '<p> </p>' }),
      withLogo,
      canonical,
      ORIGIN,
    );
    expect(empty).not.toHaveProperty('description');
  });

  it('names its tags as keywords, and has no empty keywords when it has none', () => {
    expect(ld.keywords).toBe('Port');
    const untagged = newsArticleLd(
      postSchema.parse({ ...post, tags: [] }),
      withLogo,
      canonical,
      ORIGIN,
    );
    expect(untagged).not.toHaveProperty('keywords');
  });

  it('names its publisher with the tenant’s logo as an absolute address', () => {
    const publisher = ld.publisher as Record<string, unknown>;
    expect(publisher).toMatchObject({ '@type': 'NewsMediaOrganization', name: 'Gazette' });
    expect(publisher.url).toMatch(ABSOLUTE);
    expect((publisher.logo as Record<string, unknown>).url).toBe(`${ORIGIN}/logos/gazette.svg`);
  });
});

describe('BreadcrumbList', () => {
  it('lists each crumb with its position, name and absolute address', () => {
    const ld = breadcrumbLd(
      [
        { name: 'Home', path: '/' },
        { name: 'News', path: '/categories/news' },
        { name: 'Ferry', path: '/posts/ferry-timetable' },
      ],
      ORIGIN,
    );
    const items = ld.itemListElement as Record<string, unknown>[];
    expect(items.map((item) => item.position)).toEqual([1, 2, 3]);
    for (const item of items) {
      expect(item['@type']).toBe('ListItem');
      expect(item.name).toEqual(expect.any(String));
      expect(item.item).toMatch(ABSOLUTE);
    }
  });
});

describe('VideoObject with its BroadcastEvent (livestream)', () => {
  const canonical = `${ORIGIN}/streams/council`;
  const player = 'https://player.test/player/gazette/council?embed=1';
  const stream = (fields: Record<string, unknown>) =>
    streamSchema.parse({
      title: 'Council',
      slug: 'council',
      description: 'Budget session.',
      thumbnail_url: 'https://cdn.test/council.jpg',
      watch_url: 'https://player.test/player/gazette/council',
      stream_url: player,
      ...fields,
    });
  const upcoming = stream({ status: 'scheduled', scheduled_at: '2026-11-23T18:00:00+00:00' });
  const live = stream({ status: 'live', is_live: true, started_at: '2026-11-21T23:30:00+00:00' });
  const ended = stream({
    status: 'ended',
    started_at: '2026-11-16T19:00:00+00:00',
    ended_at: '2026-11-16T20:35:00+00:00',
  });

  it.each([
    ['upcoming', upcoming],
    ['live', live],
    ['ended', ended],
  ])('an %s stream has Google’s required and recommended properties', (_name, data) => {
    const ld = streamLd(data, canonical, 'https://www.gazette.example/_img/t.jpg', player);
    expect(ld).toMatchObject({
      '@type': 'VideoObject',
      name: 'Council',
      description: 'Budget session.',
      embedUrl: player,
      // Google: true if the video is, has been or will be streamed live.
      publication: { '@type': 'BroadcastEvent', isLiveBroadcast: true },
    });
    expect(ld?.thumbnailUrl).toMatch(ABSOLUTE);
    expect(ld?.uploadDate).toMatch(ISO_DATE);
    expect((ld?.publication as Record<string, unknown>).startDate).toMatch(ISO_DATE);
    // The player page is no media file: it is the embed, never `contentUrl`.
    expect(ld).not.toHaveProperty('contentUrl');
  });

  it('gives the end where the data has one, and invents none where it has not', () => {
    const event = (data: typeof live) =>
      streamLd(data, canonical, undefined, player)?.publication as Record<string, unknown>;
    expect(event(ended).endDate).toBe('2026-11-16T20:35:00.000Z');
    expect(event(live)).not.toHaveProperty('endDate');
    expect(event(upcoming)).not.toHaveProperty('endDate');
  });

  it('names a media file (an HLS manifest) as contentUrl beside the player', () => {
    const hls = stream({ ...live, stream_url: 'https://cdn.test/live/council/index.m3u8' });
    const ld = streamLd(hls, canonical, undefined, player);
    expect(ld).toMatchObject({
      contentUrl: 'https://cdn.test/live/council/index.m3u8',
      embedUrl: player,
    });
  });
});
