/** The e-paper reader's rules, shared by the page and the island: no DOM, no server imports. */
import type { Edition, EditionPage } from '../publishing/schema.ts';
import { isRecord } from '../content/records.ts';
import { parsePage } from '../reading/pagination.ts';
import type { TextValues } from '../i18n/text-key.ts';

/** Zoom factors the reader offers; the page image's width is the fitted width times the factor. */
export const ZOOM_LEVELS = [1, 1.5, 2, 3] as const;
export type Zoom = (typeof ZOOM_LEVELS)[number];

/** An edition's pages in page order, only those with an image (also what images/prewarm.ts warms). */
export function readablePages(edition: Edition): EditionPage[] {
  return edition.pages
    .filter((page) => page.image_url !== '')
    .sort((a, b) => a.page_number - b.page_number);
}

/** Thumbnails rendered around the current page; long editions fall back to page loads beyond it. */
export const THUMB_WINDOW = 40;

export function clampPage(page: number, pageCount: number): number {
  const last = Math.max(1, Math.floor(pageCount));
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), last);
}

/** `?page=` of the reader: a positive integer clamped to the edition; anything else is page 1. */
export function readerPage(raw: string | null | undefined, pageCount: number): number {
  return clampPage(parsePage(raw?.trim()) ?? 1, pageCount);
}

/** `?zoom=` as one of {@link ZOOM_LEVELS}; unknown values are 1 (fitted). */
export function parseZoom(raw: string | null | undefined): Zoom {
  const value = Number(raw);
  return ZOOM_LEVELS.find((level) => level === value) ?? 1;
}

/** The next zoom level in `direction` (+1 in, -1 out), staying within the levels. */
export function zoomStep(zoom: number, direction: 1 | -1): Zoom {
  const index = ZOOM_LEVELS.findIndex((level) => level === zoom);
  const from = index === -1 ? 0 : index;
  const next = Math.min(Math.max(0, from + direction), ZOOM_LEVELS.length - 1);
  return ZOOM_LEVELS[next] ?? 1;
}

/** The zoom one level out (-1) or in (+1), as its control and key offer it; null at the end. */
export function zoomNext(zoom: number, direction: 1 | -1): Zoom | null {
  const next = zoomStep(zoom, direction);
  return next === zoom ? null : next;
}

/** First and last page number of the thumbnail strip: `size` pages around `page`, inside the edition. */
export function thumbWindow(
  page: number,
  pageCount: number,
  size = THUMB_WINDOW,
): { from: number; to: number } {
  const last = Math.max(1, Math.floor(pageCount));
  const width = Math.max(1, Math.min(Math.floor(size), last));
  const current = clampPage(page, last);
  const from = Math.min(Math.max(1, current - Math.floor((width - 1) / 2)), last - width + 1);
  return { from, to: from + width - 1 };
}

/** The pages shown together on a wide screen, in order: the cover alone, then 2–3, 4–5, … */
export function spreadOf(page: number, pageCount: number): number[] {
  const current = clampPage(page, pageCount);
  if (current === 1) return [1];
  const left = current % 2 === 0 ? current : current - 1;
  return left + 1 <= pageCount ? [left, left + 1] : [left];
}

/** Previous and next page (with `spread`: first page of the spread before/after); null at the ends. */
export function neighboursIn(
  spread: boolean,
  page: number,
  pageCount: number,
): { prev: number | null; next: number | null } {
  const last = Math.max(1, Math.floor(pageCount));
  const shown = spread ? spreadOf(page, last) : [clampPage(page, last)];
  const first = shown[0] ?? 1;
  const after = (shown.at(-1) ?? first) + 1;
  const before = spread ? (spreadOf(first - 1, last)[0] ?? 1) : first - 1;
  return { prev: first > 1 ? before : null, next: after <= last ? after : null };
}

/**
 * Screen shape → layout, the media queries of Reader.astro (a unit test checks they appear there):
 * spreads from 56rem wide in landscape; fitted whole when the screen is 30rem high and wider, for
 * its height, than the content; otherwise fitted to the width and scrolled.
 */
export const LAYOUT_MEDIA = {
  spread: '(min-width: 56rem) and (orientation: landscape)',
  pageFit: '(min-height: 30rem) and (min-aspect-ratio: 3/4)',
  spreadPageFit: '(min-height: 30rem) and (min-aspect-ratio: 3/2)',
} as const;
/** Width/height of a typical printed page (3:4), the ratio the media queries assume. */
export const PAGE_RATIO = 3 / 4;

/** The one-page and the spread message of each label the reader shows. */
const LABELS = {
  position: ['pagination.position', 'reader.positionSpread'],
  loading: ['reader.loadingPage', 'reader.loadingSpread'],
  failed: ['reader.failedPage', 'reader.failedSpread'],
} as const;

/** The messages the island says, handed to it raw (`data-text`) for `sayer` (src/lib/i18n/say.ts). */
export const READER_TEXTS = [
  ...Object.values(LABELS).flat(),
  'reader.pageAlt',
  'reader.zoom',
  'reader.fullscreen',
  'reader.exitFullscreen',
  'page.title',
] as const;

/** The server's `t` or the island's `sayer`: either fills in the reader's messages. */
export type ReaderSay = (key: (typeof READER_TEXTS)[number], values?: TextValues) => string;

/** A label of `pages`: `Page 3 of 16`, or `Pages 2–3 of 16` for a spread (in the tenant's language). */
export function positionLabel(
  pages: readonly number[],
  pageCount: number,
  say: ReaderSay,
  label: keyof typeof LABELS = 'position',
): string {
  const [first = 1, second] = pages;
  const [one, two] = LABELS[label];
  return second === undefined
    ? say(one, { page: first, count: pageCount })
    : say(two, { first, second, count: pageCount });
}

/** How far the thumbnail strip scrolls so an item is wholly in view (the document never scrolls). */
export function scrollToShow(
  item: { start: number; end: number },
  view: { start: number; end: number },
): number {
  if (item.start < view.start || item.end - item.start > view.end - view.start) {
    return item.start - view.start;
  }
  return item.end > view.end ? item.end - view.end : 0;
}

/** A horizontal touch swipe turns the page: left → next (+1), right → previous (-1). */
export const SWIPE_MIN_PX = 48;
export function swipeDirection(dx: number, dy: number): 1 | -1 | null {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  return dx < 0 ? 1 : -1;
}

/** Two fingers moving apart zoom in one level, together zoom out; small changes are ignored. */
export function pinchDirection(startDistance: number, endDistance: number): 1 | -1 | null {
  if (startDistance <= 0) return null;
  const ratio = endDistance / startDistance;
  if (ratio >= 1.25) return 1;
  if (ratio <= 0.8) return -1;
  return null;
}

/**
 * The reader's path for a page and zoom (`/epaper/x/page/3/zoom/1.5`), replacing any page or zoom
 * already in `path`: a static copy serves these as files, where query strings are ignored.
 */
export function readerPath(path: string, page: number, zoom: number): string {
  const base = path.replace(/(?:\/page\/[^/]*)?(?:\/zoom\/[^/]*)?\/?$/, '');
  return `${base}${page > 1 ? `/page/${page}` : ''}${zoom !== 1 ? `/zoom/${zoom}` : ''}`;
}

/** Page and zoom a reader path names (the inverse of {@link readerPath}): what Back and Forward show. */
export function readerPlace(path: string, pageCount: number): { page: number; zoom: Zoom } {
  const [, page, zoom] = /(?:\/page\/([^/]*))?(?:\/zoom\/([^/]*))?\/?$/.exec(path) ?? [];
  return { page: readerPage(page, pageCount), zoom: parseZoom(zoom) };
}

export type ReaderAction =
  { type: 'go'; page: number } | { type: 'zoom'; zoom: Zoom } | { type: 'pan'; direction: 1 | -1 };

export interface KeyContext {
  key: string;
  page: number;
  pageCount: number;
  zoom: number;
  /** Ctrl, Meta or Alt held (browser shortcuts), or focus in a field: not ours. */
  modified: boolean;
  inField: boolean;
  spread?: boolean;
}

/** Keyboard shortcuts: ←/→ previous/next (page or spread; unzoomed), Home/End first/last, +/- zoom. `null`: not ours. */
export function keyAction(context: KeyContext): ReaderAction | null {
  if (context.modified || context.inField) return null;
  const { page, pageCount, zoom } = context;
  // Zoomed in, ← and → pan the enlarged page (as a finger does); the buttons still turn.
  if (zoom > 1 && (context.key === 'ArrowLeft' || context.key === 'ArrowRight'))
    return { type: 'pan', direction: context.key === 'ArrowRight' ? 1 : -1 };
  const n = neighboursIn(context.spread ?? false, page, pageCount);
  const go = (target: number | null): ReaderAction | null =>
    target === null || target === clampPage(page, pageCount) ? null : { type: 'go', page: target };
  const zoomTo = (direction: 1 | -1): ReaderAction | null => {
    const next = zoomNext(zoom, direction);
    return next === null ? null : { type: 'zoom', zoom: next };
  };
  const actions: Readonly<Record<string, () => ReaderAction | null>> = {
    ArrowLeft: () => go(n.prev),
    ArrowRight: () => go(n.next),
    Home: () => go(1),
    End: () => go(clampPage(pageCount, pageCount)),
    '+': () => zoomTo(1),
    '=': () => zoomTo(1),
    '-': () => zoomTo(-1),
    _: () => zoomTo(-1),
  };
  return Object.hasOwn(actions, context.key) ? (actions[context.key]?.() ?? null) : null;
}

/** Whether an element takes typed keys itself (the reader's shortcuts stay off there). */
export function isFormField(element: {
  tagName?: string;
  isContentEditable?: boolean;
  type?: string;
}): boolean {
  if (element.isContentEditable) return true;
  const tag = (element.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (element.type ?? 'text').toLowerCase();
  return !['button', 'submit', 'reset', 'checkbox', 'radio', 'image'].includes(type);
}

/** The label of a zoom level, e.g. `150%`. */
export function zoomLabel(zoom: number): string {
  return `${Math.round(zoom * 100)}%`;
}

/** The `sizes` of a page image: its CSS width in each layout above, times the zoom. */
export function readerSizes(zoom: number): string {
  const times = (css: string) => (zoom === 1 ? css : `calc(${css} * ${zoom})`);
  // The screen's height less the one-row toolbar (3.5rem) and the viewport's padding.
  const fitted = `calc((100vh - 4.5rem) * ${PAGE_RATIO})`;
  return [
    `${LAYOUT_MEDIA.spread} and ${LAYOUT_MEDIA.spreadPageFit} ${times(fitted)}`,
    `${LAYOUT_MEDIA.spread} ${times('50vw')}`,
    `${LAYOUT_MEDIA.pageFit} ${times(fitted)}`,
    times('calc(100vw - 2rem)'),
  ].join(', ');
}

/** What the reader's screen shows: reader-island.ts draws it, the functions below give the next one. */
export interface ReaderState {
  /** The page the address names. */
  page: number;
  /** The page whose images are on screen: `page` once they have loaded (the labels name it). */
  shown: number;
  zoom: Zoom;
  /** A turned-to page's images are still loading. */
  loading: boolean;
  /** Pages on screen whose image failed to load, in page order (the notice names them). */
  failed: readonly number[];
}

/** A turn to `page`: its images are new, none of them failed. */
export function turned(state: ReaderState, page: number): ReaderState {
  return page === state.page ? state : { ...state, page, failed: [] };
}

/** The turned-to page's images still `loading`, or all arrived: then the labels name its pages. */
export function settled(state: ReaderState, loading: boolean): ReaderState {
  return { ...state, loading, shown: loading ? state.shown : state.page };
}

/** `page`'s image failed (or, `false`, loaded); the same state when that changes nothing. */
export function withFailure(state: ReaderState, page: number, failed: boolean): ReaderState {
  if (state.failed.includes(page) === failed) return state;
  const others = state.failed.filter((n) => n !== page);
  return { ...state, failed: failed ? [...others, page].sort((a, b) => a - b) : others };
}

/** The other page of `page`'s spread (the partner image shows it on wide screens). */
export function partnerOf(page: number, pageCount: number): number | undefined {
  return spreadOf(page, pageCount).find((n) => n !== page);
}

/** One page of a two-page spread failed: the notice sits over that page's side. */
export function failedSide(state: ReaderState, pageCount: number): 'left' | 'right' | undefined {
  const [only, another] = state.failed;
  const [left, right] = spreadOf(state.page, pageCount);
  if (only === undefined || another !== undefined || right === undefined) return undefined;
  return only === left ? 'left' : 'right';
}

/** The zoomed page's scroll position a history entry keeps (`pan`): a reload shows the same part. */
export function panOf(entry: unknown): { left: number; top: number } | null {
  const pan = isRecord(entry) ? entry['pan'] : undefined;
  if (!isRecord(pan)) return null;
  const { left, top } = pan;
  return typeof left === 'number' && typeof top === 'number' ? { left, top } : null;
}
