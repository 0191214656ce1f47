import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  keyAction,
  LAYOUT_MEDIA,
  neighboursIn,
  pinchDirection,
  positionLabel,
  scrollToShow,
  spreadOf,
  swipeDirection,
} from '../../../src/lib/epaper/reader.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { sayer } from '../../../src/lib/i18n/say.ts';
import { de } from '../../../src/lib/i18n/messages/de.ts';
import { en } from '../../../src/lib/i18n/messages/en.ts';

describe('spreadOf: the cover alone, then pairs as printed', () => {
  it.each([
    [1, 16, [1]],
    [2, 16, [2, 3]],
    [3, 16, [2, 3]],
    [15, 16, [14, 15]],
    [16, 16, [16]],
    [14, 15, [14, 15]],
    [15, 15, [14, 15]],
    [99, 16, [16]],
    [2, 2, [2]],
    [1, 1, [1]],
  ])('page %i of %i → %j', (page, count, expected) => {
    expect(spreadOf(page, count)).toEqual(expected);
  });

  it('covers every page of a 16-page edition exactly once', () => {
    const seen = new Set<string>();
    for (let page = 1; page <= 16; page++) seen.add(spreadOf(page, 16).join('-'));
    expect([...seen]).toEqual(['1', '2-3', '4-5', '6-7', '8-9', '10-11', '12-13', '14-15', '16']);
  });
});

describe('neighboursIn with spreads: previous and next move by spread', () => {
  it.each([
    [1, 16, null, 2],
    [2, 16, 1, 4],
    [3, 16, 1, 4],
    [4, 16, 2, 6],
    [14, 16, 12, 16],
    [16, 16, 14, null],
    [14, 15, 12, null],
    [1, 1, null, null],
  ])('page %i of %i → prev %j, next %j', (page, count, prev, next) => {
    expect(neighboursIn(true, page, count)).toEqual({ prev, next });
  });

  it('one-page screens keep moving page by page', () => {
    expect(neighboursIn(false, 3, 16)).toMatchObject({ prev: 2, next: 4 });
    expect(neighboursIn(true, 3, 16)).toMatchObject({ prev: 1, next: 4 });
  });

  it('arrow keys follow the layout', () => {
    const base = {
      key: 'ArrowRight',
      page: 2,
      pageCount: 16,
      zoom: 1,
      modified: false,
      inField: false,
    };
    expect(keyAction({ ...base, spread: true })).toEqual({ type: 'go', page: 4 });
    expect(keyAction({ ...base, spread: false })).toEqual({ type: 'go', page: 3 });
    expect(keyAction({ ...base, key: 'ArrowLeft', page: 5, spread: true })).toEqual({
      type: 'go',
      page: 2,
    });
  });
});

describe('LAYOUT_MEDIA: the layout by screen shape (tests/e2e/reader-layout.spec.ts asks a browser)', () => {
  it('Reader.astro uses the same media queries', () => {
    const css = readFileSync('src/components/epaper/Reader.astro', 'utf8');
    for (const query of Object.values(LAYOUT_MEDIA)) expect(css).toContain(`@media ${query}`);
  });
});

describe("positionLabel: the dictionary's templates filled in", () => {
  it.each([
    [[3], 16, 'Page 3 of 16'],
    [[1], 16, 'Page 1 of 16'],
    [[2, 3], 16, 'Pages 2–3 of 16'],
  ])('%j of %i → %s', (pages, count, expected) => {
    expect(positionLabel(pages, count, sayer(en, 'en'))).toBe(expected);
  });

  it("speaks the tenant's language, in the island as on the server", () => {
    expect(positionLabel([2, 3], 16, sayer(de, 'de'))).toBe('Seiten 2–3 von 16');
    const { t } = createI18n('de-CH', 'Europe/Zurich');
    expect(positionLabel([2, 3], 16, t)).toBe('Seiten 2–3 von 16');
  });
});

describe('touch gestures', () => {
  it.each([
    [-120, 10, 1],
    [120, -10, -1],
    [-30, 0, null],
    [-80, 70, null],
    [0, -200, null],
  ])('swipe dx %i, dy %i → %j', (dx, dy, expected) => {
    expect(swipeDirection(dx, dy)).toBe(expected);
  });

  it.each([
    [100, 160, 1],
    [160, 100, -1],
    [100, 110, null],
    [0, 100, null],
  ])('pinch from %i px to %i px → %j', (from, to, expected) => {
    expect(pinchDirection(from, to)).toBe(expected);
  });
});

describe('loading labels: the pages asked for, not yet shown', () => {
  it.each([
    [[6], 'Loading page 6…'],
    [[6, 7], 'Loading pages 6–7…'],
  ])('%j → %s', (pages, expected) => {
    expect(positionLabel(pages, 16, sayer(en, 'en'), 'loading')).toBe(expected);
  });
});

describe('scrollToShow: the thumbnail strip follows the current page sideways', () => {
  const view = { start: 100, end: 500 };
  it.each([
    ['already in view', { start: 200, end: 272 }, 0],
    ['past the right edge', { start: 480, end: 552 }, 52],
    ['before the left edge', { start: 40, end: 112 }, -60],
    ['wider than the strip: its start', { start: 300, end: 800 }, 200],
  ])('%s', (_, item, expected) => {
    expect(scrollToShow(item, view)).toBe(expected);
  });
});
