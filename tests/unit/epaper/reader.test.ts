import { describe, expect, it } from 'vitest';
import {
  clampPage,
  failedSide,
  isFormField,
  keyAction,
  neighboursIn,
  panOf,
  parseZoom,
  readerPath,
  readerPage,
  readerPlace,
  settled,
  thumbWindow,
  turned,
  withFailure,
  zoomLabel,
  zoomNext,
  zoomStep,
  type KeyContext,
  type ReaderState,
} from '../../../src/lib/epaper/reader.ts';
import { queryWithout } from '../../../src/lib/reading/pagination.ts';

describe('readerPage: ?page= of the reader, clamped to the edition', () => {
  it.each([
    [null, 12, 1],
    [undefined, 12, 1],
    ['', 12, 1],
    ['1', 12, 1],
    ['5', 12, 5],
    [' 5 ', 12, 5],
    ['12', 12, 12],
    ['13', 12, 12],
    ['999999', 12, 12],
    ['0', 12, 1],
    ['-3', 12, 1],
    ['2.5', 12, 1],
    ['abc', 12, 1],
    ['1e3', 12, 1],
    ['9999999', 12, 1],
    ['4', 0, 1],
  ])('%j of %i pages → %i', (raw, count, expected) => {
    expect(readerPage(raw, count)).toBe(expected);
  });
});

describe('clampPage', () => {
  it.each([
    [0, 10, 1],
    [11, 10, 10],
    [Number.NaN, 10, 1],
    [Number.POSITIVE_INFINITY, 10, 1],
    [3.7, 10, 3],
    [3, 0, 1],
  ])('%d in %d pages → %d', (page, count, expected) => {
    expect(clampPage(page, count)).toBe(expected);
  });
});

describe('zoom', () => {
  it.each([
    [null, 1],
    ['1', 1],
    ['1.5', 1.5],
    ['2', 2],
    ['3', 3],
    ['4', 1],
    ['x', 1],
  ])('parseZoom(%j) → %d', (raw, expected) => {
    expect(parseZoom(raw)).toBe(expected);
  });

  it.each([
    [1, 1, 1.5],
    [1.5, 1, 2],
    [2, 1, 3],
    [3, 1, 3],
    [3, -1, 2],
    [1.5, -1, 1],
    [1, -1, 1],
    [1.2, 1, 1.5],
  ] as const)('zoomStep(%d, %d) → %d', (zoom, direction, expected) => {
    expect(zoomStep(zoom, direction)).toBe(expected);
  });

  it('offers no zoom step past either end (the control is disabled there)', () => {
    expect(zoomNext(1, -1)).toBeNull();
    expect(zoomNext(3, 1)).toBeNull();
    expect(zoomNext(1, 1)).toBe(1.5);
    expect(zoomNext(2, -1)).toBe(1.5);
  });

  it('labels levels as percentages', () => {
    expect(zoomLabel(1)).toBe('100%');
    expect(zoomLabel(1.5)).toBe('150%');
  });
});

describe('neighbours', () => {
  it.each([
    [1, 12, { prev: null, next: 2 }],
    [5, 12, { prev: 4, next: 6 }],
    [12, 12, { prev: 11, next: null }],
    [1, 1, { prev: null, next: null }],
    [40, 12, { prev: 11, next: null }],
  ])('page %i of %i', (page, count, expected) => {
    expect(neighboursIn(false, page, count)).toEqual(expected);
  });
});

describe('thumbWindow: `size` thumbnails around the current page', () => {
  it.each([
    [1, 12, 40, { from: 1, to: 12 }],
    [12, 12, 40, { from: 1, to: 12 }],
    [1, 100, 10, { from: 1, to: 10 }],
    [50, 100, 10, { from: 46, to: 55 }],
    [100, 100, 10, { from: 91, to: 100 }],
    [97, 100, 10, { from: 91, to: 100 }],
    [5, 100, 1, { from: 5, to: 5 }],
    [3, 0, 10, { from: 1, to: 1 }],
  ])('page %i of %i, size %i', (page, count, size, expected) => {
    expect(thumbWindow(page, count, size)).toEqual(expected);
  });
});

describe('readerPlace: the page and zoom a reader path names (Back and Forward)', () => {
  it.each([
    ['/epaper/x', { page: 1, zoom: 1 }],
    ['/epaper/x/page/3', { page: 3, zoom: 1 }],
    ['/epaper/x/page/3/zoom/1.5', { page: 3, zoom: 1.5 }],
    ['/epaper/x/zoom/2', { page: 1, zoom: 2 }],
    ['/daily-planet/epaper/x/page/12/', { page: 12, zoom: 1 }],
    ['/epaper/x/page/99', { page: 20, zoom: 1 }],
    ['/epaper/x/page/abc/zoom/7', { page: 1, zoom: 1 }],
  ])('%s', (path, expected) => {
    expect(readerPlace(path, 20)).toEqual(expected);
    expect(readerPlace(readerPath(path, expected.page, expected.zoom), 20)).toEqual(expected);
  });
});

describe('queryWithout: the reader URL keeps other parameters', () => {
  it.each([
    ['', ''],
    ['?page=3&zoom=2', ''],
    ['?tenant=daily-planet&page=3', '?tenant=daily-planet'],
    ['tenant=x&zoom=3', '?tenant=x'],
  ])('%j → %j', (base, expected) => {
    expect(queryWithout(base, 'page', 'zoom')).toBe(expected);
  });
});

describe('keyAction: the keyboard map', () => {
  const at = (key: string, over: Partial<KeyContext> = {}): KeyContext => ({
    key,
    page: 5,
    pageCount: 12,
    zoom: 1,
    modified: false,
    inField: false,
    ...over,
  });

  it.each([
    ['ArrowLeft', {}, { type: 'go', page: 4 }],
    ['ArrowRight', {}, { type: 'go', page: 6 }],
    ['Home', {}, { type: 'go', page: 1 }],
    ['End', {}, { type: 'go', page: 12 }],
    ['+', {}, { type: 'zoom', zoom: 1.5 }],
    ['=', {}, { type: 'zoom', zoom: 1.5 }],
    ['-', { zoom: 2 }, { type: 'zoom', zoom: 1.5 }],
    ['_', { zoom: 2 }, { type: 'zoom', zoom: 1.5 }],
    // Nothing to do at the edges.
    ['ArrowLeft', { page: 1 }, null],
    ['Home', { page: 1 }, null],
    ['ArrowRight', { page: 12 }, null],
    // Zoomed in, the arrows pan the page; Home and End still turn.
    ['ArrowRight', { zoom: 2 }, { type: 'pan', direction: 1 }],
    ['ArrowLeft', { zoom: 1.5 }, { type: 'pan', direction: -1 }],
    ['End', { zoom: 2 }, { type: 'go', page: 12 }],
    ['End', { page: 12 }, null],
    ['+', { zoom: 3 }, null],
    ['-', { zoom: 1 }, null],
    // Not ours.
    ['a', {}, null],
    ['ArrowUp', {}, null],
    ['Enter', {}, null],
    // Modifier keys and form fields keep their own meaning.
    ['ArrowRight', { modified: true }, null],
    ['+', { modified: true }, null],
    ['ArrowLeft', { inField: true }, null],
    ['End', { inField: true }, null],
  ] as const)('%s %j → %j', (key, over, expected) => {
    expect(keyAction(at(key, over))).toEqual(expected);
  });
});

describe('isFormField', () => {
  it.each([
    [{ tagName: 'INPUT', type: 'number' }, true],
    [{ tagName: 'input', type: 'text' }, true],
    [{ tagName: 'INPUT' }, true],
    [{ tagName: 'INPUT', type: 'search' }, true],
    [{ tagName: 'INPUT', type: 'checkbox' }, false],
    [{ tagName: 'INPUT', type: 'submit' }, false],
    [{ tagName: 'TEXTAREA' }, true],
    [{ tagName: 'SELECT' }, true],
    [{ tagName: 'DIV', isContentEditable: true }, true],
    [{ tagName: 'A' }, false],
    [{ tagName: 'BUTTON' }, false],
    [{ tagName: 'BODY' }, false],
  ])('%j → %s', (element, expected) => {
    expect(isFormField(element)).toBe(expected);
  });
});

describe('readerPath: page and zoom in the path', () => {
  it.each([
    ['/epaper/x', 1, 1, '/epaper/x'],
    ['/epaper/x', 3, 1, '/epaper/x/page/3'],
    ['/epaper/x', 3, 1.5, '/epaper/x/page/3/zoom/1.5'],
    ['/epaper/x', 1, 2, '/epaper/x/zoom/2'],
    ['/epaper/x/page/3/zoom/1.5', 4, 1.5, '/epaper/x/page/4/zoom/1.5'],
    ['/daily-planet/epaper/x/page/3', 1, 1, '/daily-planet/epaper/x'],
  ])('%s at page %s, zoom %s is %s', (path, page, zoom, expected) => {
    expect(readerPath(path, page, zoom)).toBe(expected);
  });
});

describe('the reader state: what a turn, a load and a failure change', () => {
  const at: ReaderState = { page: 5, shown: 5, zoom: 2, loading: false, failed: [4] };

  it('a turn names the new page; the labels keep the old one until its images arrive', () => {
    const turn = turned(at, 7);
    expect(turn).toEqual({ ...at, page: 7, failed: [] });
    expect(settled(turn, true)).toEqual({ ...turn, loading: true });
    expect(settled(settled(turn, true), false)).toEqual({ ...turn, shown: 7, loading: false });
    expect(turned(at, 5)).toBe(at);
  });

  it('failures are kept in page order; a load takes one away; nothing new, the same state', () => {
    expect(withFailure(at, 5, true).failed).toEqual([4, 5]);
    expect(withFailure(withFailure(at, 5, true), 4, false).failed).toEqual([5]);
    expect(withFailure(at, 4, true)).toBe(at);
    expect(withFailure(at, 5, false)).toBe(at);
  });

  it.each([
    [{ page: 5, failed: [4] }, 'left'],
    [{ page: 5, failed: [5] }, 'right'],
    [{ page: 4, failed: [5] }, 'right'],
    [{ page: 4, failed: [4, 5] }, undefined],
    [{ page: 1, failed: [1] }, undefined],
    [{ page: 12, failed: [12] }, undefined],
    [{ page: 5, failed: [] }, undefined],
  ])('the notice of %j sits over the %s page', (over, side) => {
    expect(failedSide({ ...at, ...over }, 12)).toBe(side);
  });
});

describe('panOf: the scroll position a history entry keeps', () => {
  it.each([
    [{ pan: { left: 400, top: 300 } }, { left: 400, top: 300 }],
    [
      { pan: { left: 0, top: 12.5 }, other: 'kept' },
      { left: 0, top: 12.5 },
    ],
    [null, null],
    [undefined, null],
    ['pan', null],
    [{ pan: null }, null],
    [{ pan: { left: '400', top: 300 } }, null],
    [{ pan: [400, 300] }, null],
  ])('%j → %j', (entry, pan) => {
    expect(panOf(entry)).toEqual(pan);
  });
});
