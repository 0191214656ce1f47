import { describe, expect, it } from 'vitest';
import {
  frontPage,
  gridColumns,
  readingMinutes,
  shownUpdate,
} from '../../../src/lib/reading/article.ts';
import { tagPath } from '../../../src/lib/reading/paths.ts';

describe('readingMinutes', () => {
  it.each([
    ['', 1],
    ['<p>Short.</p>', 1],
    [`<p>${'word '.repeat(660)}</p>`, 3],
    [`<p>${'word '.repeat(440)}</p><script>${'x '.repeat(5000)}</script>`, 2],
  ])('%#: %s… takes %i min', (html, minutes) => {
    expect(readingMinutes(html)).toBe(minutes);
  });
});

describe('shownUpdate', () => {
  const zone = 'Europe/Zurich';
  it.each([
    ['same day', '2026-11-20T08:00:00Z', '2026-11-20T15:00:00Z', null],
    ['a later day', '2026-11-20T08:00:00Z', '2026-11-22T09:00:00Z', '2026-11-22T09:00:00Z'],
    // 23:30 UTC is already the next day in Zurich.
    [
      'the next day in the zone',
      '2026-11-20T08:00:00Z',
      '2026-11-20T23:30:00Z',
      '2026-11-20T23:30:00Z',
    ],
    ['never updated', '2026-11-20T08:00:00Z', null, null],
    ['an update before publication', '2026-11-20T08:00:00Z', '2026-11-01T08:00:00Z', null],
  ])('%s', (_name, published_at, updated_at, expected) => {
    expect(shownUpdate({ published_at, updated_at }, zone)).toBe(expected);
  });

  it('reads times without an offset as UTC, whatever zone the server runs in', () => {
    const saved = process.env['TZ'];
    process.env['TZ'] = 'America/New_York';
    try {
      // 20:00 and 23:30 UTC: the 20th and the 21st in Zurich (read on New York's clock, both the 21st).
      const post = { published_at: '2026-11-20 20:00:00', updated_at: '2026-11-20 23:30:00' };
      expect(shownUpdate(post, zone)).toBe('2026-11-20 23:30:00');
    } finally {
      if (saved === undefined) delete process.env['TZ'];
      else process.env['TZ'] = saved;
    }
  });
});

describe('frontPage', () => {
  const post = (id: number, published_at: string | null) => ({ id, published_at });
  it('leads with the newest featured post and lists the rest without repeats', () => {
    const featured = [
      post(1, '2026-11-01T00:00:00Z'),
      post(2, '2026-11-03T00:00:00Z'),
      post(3, null),
    ];
    const latest = [post(4, '2026-11-04T00:00:00Z'), post(2, '2026-11-03T00:00:00Z')];
    const page = frontPage(featured, latest);
    expect(page.lead?.id).toBe(2);
    expect(page.secondary.map((p) => p.id)).toEqual([1, 3]);
    expect(page.list.map((p) => p.id)).toEqual([4]);
  });

  it('has no lead without featured posts', () => {
    expect(frontPage([], [post(4, null)])).toEqual({
      lead: null,
      secondary: [],
      list: [post(4, null)],
    });
  });
});

describe('gridColumns', () => {
  it.each([
    [1, 1, 1],
    [2, 2, 2],
    [3, 3, 3],
    [4, 2, 4],
    [6, 2, 3],
    [8, 2, 4],
    [10, 2, 2],
  ])('%i cards: %i columns, then %i', (count, medium, wide) => {
    expect(gridColumns(count)).toEqual({ medium, wide });
  });
});

describe('tagPath', () => {
  it('links a tag by its slug, by its name when the upstream gives none', () => {
    expect(tagPath({ name: 'Winter Ferries', slug: 'winter-ferries' })).toBe(
      '/tags/winter-ferries',
    );
    expect(tagPath({ name: 'ferries' })).toBe('/tags/ferries');
  });
});
