import { describe, expect, it } from 'vitest';
import { frontPageCache } from '../../../src/lib/reading/front-page-load.ts';
import { settings } from '../../../src/lib/settings/settings.ts';
import {
  SECTION_POSTS,
  clockTime,
  distinctBlocks,
  frontPageStories,
  frontSections,
  liveBand,
  liveBandParts,
  needsTopUp,
  promotedEdition,
  sectionBlocks,
  topUp,
} from '../../../src/lib/reading/front-page.ts';
import { editionSchema, streamSchema, type Category } from '../../../src/lib/publishing/schema.ts';
import { postSummary } from '../../fixtures/post.ts';

const category = (slug: string, posts_count = 20): Category => ({
  id: slug.length,
  name: slug.toUpperCase(),
  slug,
  posts_count,
});
const CATEGORIES = ['news', 'sport', 'city', 'culture', 'opinion'].map((slug) => category(slug));

const post = (id: number, slug: string) =>
  postSummary({ id, slug: `p${id}`, category: { id: 1, name: slug, slug } });

describe('frontSections', () => {
  it('without configuration takes the four largest categories, in the header’s order', () => {
    expect(frontSections(undefined, CATEGORIES).map((c) => c.slug)).toEqual([
      'news',
      'sport',
      'city',
      'culture',
    ]);
  });

  it('follows the configured order and skips slugs the API does not know', () => {
    const configured = ['opinion', 'gone', 'news'];
    expect(frontSections(configured, CATEGORIES).map((c) => c.slug)).toEqual(['opinion', 'news']);
  });
});

describe('sectionBlocks', () => {
  const pool = [
    post(1, 'news'),
    post(2, 'sport'),
    post(3, 'news'),
    post(4, 'news'),
    post(5, 'news'),
    post(6, 'news'),
    post(7, 'news'),
  ];

  it('gives each section its newest stories, without those already shown above', () => {
    const [news, sport] = sectionBlocks([category('news'), category('sport')], pool, new Set([1]));
    expect(news?.posts.map((p) => p.id)).toEqual([3, 4, 5, 6]);
    expect(news?.posts).toHaveLength(SECTION_POSTS);
    expect(sport?.posts.map((p) => p.id)).toEqual([2]);
  });

  it('asks the category itself only when the pool falls short of what it holds', () => {
    const [news, sport, city] = sectionBlocks(
      [category('news'), category('sport', 1), category('city', 2)],
      pool,
      new Set(),
    );
    expect([news, sport, city].map((block) => block && needsTopUp(block))).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('a topped-up block keeps its stories first and never repeats one', () => {
    const block = { category: category('sport'), posts: [post(2, 'sport')] };
    const own = [post(2, 'sport'), post(1, 'sport'), post(9, 'sport'), post(10, 'sport')];
    expect(topUp(block, own, new Set([1])).posts.map((p) => p.id)).toEqual([2, 9, 10]);
  });
});

describe('frontPageStories', () => {
  // Newest first: the list takes the newest four that are not featured, blocks take the rest.
  const pool = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => post(id, id % 2 ? 'news' : 'sport'));
  const featured = [post(2, 'sport'), post(20, 'news')];
  const sections = [category('news'), category('sport')];

  it('shows a story at most once: featured, then the "More news" list, then the section blocks', () => {
    const { list, blocks, shown } = frontPageStories(featured, pool, sections, 5);
    expect(list.map((p) => p.id)).toEqual([1, 3, 4, 5]);
    expect(blocks.map((block) => block.posts.map((p) => p.id))).toEqual([
      [7, 9],
      [6, 8, 10],
    ]);
    const everyStory = [...featured, ...list, ...blocks.flatMap((block) => block.posts)];
    const ids = everyStory.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(shown).toEqual(new Set([2, 20, 1, 3, 4, 5]));
  });

  it('after top-ups, drops a story the list or an earlier block already has, and empty blocks', () => {
    const blocks = [
      { category: category('news'), posts: [post(1, 'news'), post(7, 'news')] },
      { category: category('sport'), posts: [post(7, 'news'), post(8, 'sport')] },
      { category: category('city'), posts: [post(3, 'city')] },
    ];
    expect(
      distinctBlocks(blocks, new Set([1, 3])).map((block) => [
        block.category.slug,
        block.posts.map((p) => p.id),
      ]),
    ).toEqual([
      ['news', [7]],
      ['sport', [8]],
    ]);
  });
});

describe('liveBand', () => {
  const stream = (slug: string, fields: Record<string, unknown>) =>
    streamSchema.parse({ title: slug, slug, ...fields });
  // 15:00 in Zurich.
  const NOW = new Date('2026-11-23T14:00:00Z');
  const ZONE = 'Europe/Zurich';

  it('names the live streams', () => {
    const band = liveBand(
      [stream('a', { status: 'live' }), stream('b', { status: 'scheduled' })],
      NOW,
      ZONE,
    );
    expect(band).toMatchObject({ kind: 'live', streams: [{ slug: 'a' }] });
  });

  it('without a live stream, announces the next one scheduled later today on the tenant’s clock', () => {
    const band = liveBand(
      [
        stream('tomorrow', { status: 'scheduled', scheduled_at: '2026-11-23T23:30:00Z' }),
        stream('tonight', { status: 'scheduled', scheduled_at: '2026-11-23T19:00:00Z' }),
        stream('soon', { status: 'scheduled', scheduled_at: '2026-11-23T17:00:00Z' }),
        stream('over', { status: 'ended', ended_at: '2026-11-23T10:00:00Z' }),
      ],
      NOW,
      ZONE,
    );
    // 23:30 UTC is already tomorrow in Zurich.
    expect(band).toEqual({
      kind: 'today',
      stream: expect.objectContaining({ slug: 'soon' }) as unknown,
      startsAt: '2026-11-23T17:00:00.000Z',
    });
  });

  it('reads a start without an offset as UTC, whatever zone the server runs in', () => {
    const zone = process.env['TZ'];
    process.env['TZ'] = 'America/New_York';
    try {
      const band = liveBand(
        [stream('evening', { status: 'scheduled', scheduled_at: '2026-11-23 17:00:00' })],
        NOW,
        ZONE,
      );
      expect(band).toMatchObject({ kind: 'today', startsAt: '2026-11-23T17:00:00.000Z' });
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });

  it('says nothing when no stream is live or due today', () => {
    const streams = [
      stream('next-week', { status: 'scheduled', scheduled_at: '2026-11-30T18:00:00Z' }),
      stream('over', { status: 'ended', ended_at: '2026-11-23T10:00:00Z' }),
    ];
    expect(liveBand(streams, NOW, ZONE)).toBeNull();
    expect(liveBand([], NOW, ZONE)).toBeNull();
  });

  it('is named in a kept front page by its streams and start, so a change of either renders anew', () => {
    const live = stream('a', { status: 'live' });
    const soon = stream('soon', { status: 'scheduled', scheduled_at: '2026-11-23T17:00:00Z' });
    expect(liveBandParts(null)).toEqual([null]);
    expect(liveBandParts({ kind: 'live', streams: [live] })).toEqual(['live', live]);
    const today = liveBand([soon], NOW, ZONE);
    expect(liveBandParts(today)).toEqual(['today', soon, '2026-11-23T17:00:00.000Z']);
  });
});

describe('promotedEdition', () => {
  const edition = (slug: string, published_at: string, cover: string | null) =>
    editionSchema.parse({ title: slug, slug, published_at, cover_image_url: cover });

  it('is the newest edition with a cover', () => {
    const editions = [
      edition('old', '2026-11-01', 'https://cdn.example/old.jpg'),
      edition('uncovered', '2026-11-22', null),
      edition('new', '2026-11-15', 'https://cdn.example/new.jpg'),
    ];
    expect(promotedEdition(editions)?.slug).toBe('new');
    expect(promotedEdition([])).toBeNull();
  });
});

describe('clockTime', () => {
  it.each([
    ['de-CH', 'Europe/Zurich', '18:00 MEZ'],
    ['en-US', 'America/New_York', '12:00 PM EST'],
  ])('%s in %s', (locale, timeZone, text) => {
    expect(clockTime('2026-11-23T17:00:00Z', { locale, timeZone })).toBe(text);
  });
});

describe('frontPageCache', () => {
  it('keeps the front page for FRONT_PAGE_CACHE_SECONDS, and 30 s at most without its featured list', () => {
    const seconds = settings().FRONT_PAGE_CACHE_SECONDS;
    expect(frontPageCache({ streams: [], complete: true })).toEqual({ maxAge: seconds, swr: 600 });
    expect(frontPageCache({ streams: [], complete: false })).toEqual({
      maxAge: Math.min(seconds, 30),
      swr: 600,
    });
  });
});
