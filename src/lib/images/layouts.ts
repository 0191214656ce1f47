import type { PictureLayout } from './picture.ts';

/**
 * How wide each layout shows its pictures, in step with its component's CSS (the page is at most
 * 72rem wide). Planned for 16 to 24 px a rem: Chromium reads the rem of `sizes` at the reader's
 * font, so a ladder sized for 16 px alone left a dense screen's cover blurry.
 */
const REM_PX = [16, 24];
const widest = (px: (rem: number) => number) => Math.ceil(Math.max(...REM_PX.map(px)));
const narrowest = (px: (rem: number) => number) => Math.floor(Math.min(...REM_PX.map(px)));
/** `calc(100vw - 2rem)` on a 320 px screen. */
const fullColumnMin = (rem: number) => 320 - 2 * rem;
/** PostGrid's gap between cards (1.25rem). */
const GRID_GAP_REM = 1.25;

/** `sizes` width of one of `n` columns across `page` less the page's 1rem padding each side. */
const column = (n: number, page: string) =>
  n === 1 ? `calc(${page} - 2rem)` : `calc((${page} - ${2 + (n - 1) * GRID_GAP_REM}rem) / ${n})`;
/** The same in CSS pixels on a screen `screen` rem wide (the page at most 72rem), `rem` px a rem. */
const columnPx = (n: number, screen: number, rem: number) =>
  ((Math.min(screen, 72) - 2 - (n - 1) * GRID_GAP_REM) * rem) / n;
/** Just below a `(min-width: …rem)` breakpoint of `rem` px, in rem. */
const below = (breakpoint: number, rem: number) => breakpoint - 1 / rem;

/**
 * A card of PostGrid's grid: one column below 36rem, `medium` columns from 36rem, `wide` from 60rem
 * (`gridColumns` picks 1–4 by the number of cards, so an archive page of ten shows two a row).
 */
export function gridCard(medium: number, wide: number): PictureLayout {
  return {
    sizes: `(min-width: 60rem) ${column(wide, 'min(100vw, 72rem)')}, (min-width: 36rem) ${column(medium, '100vw')}, calc(100vw - 2rem)`,
    // The widest: a phone's column just below 36rem, or the grid's just below 60rem or at 72rem;
    // the narrowest: a 320 px phone's, or the grid's at 36rem or at 60rem.
    maxWidth: widest((rem) =>
      Math.max(
        columnPx(1, below(36, rem), rem),
        columnPx(medium, below(60, rem), rem),
        columnPx(wide, 72, rem),
      ),
    ),
    minWidth: narrowest((rem) =>
      Math.min(fullColumnMin(rem), columnPx(medium, 36, rem), columnPx(wide, 60, rem)),
    ),
  };
}

/** A card of a grid of two columns from 36rem and three from 60rem (and one in a section block). */
const GRID_CARD: PictureLayout = gridCard(2, 3);
export const CARD_LAYOUT: Record<'lead' | 'secondary' | 'grid', PictureLayout> = {
  // Beside the text (3fr of 5) from 56rem, the full column below.
  lead: {
    sizes: '(min-width: 56rem) min(42rem, 58vw), calc(100vw - 2rem)',
    maxWidth: widest((rem) => columnPx(1, below(56, rem), rem)),
    minWidth: narrowest(fullColumnMin),
  },
  secondary: GRID_CARD,
  grid: GRID_CARD,
};

/** A post's cover above the article and the pictures in its text (the article page's column). */
export const ARTICLE_COVER: PictureLayout = {
  sizes: '(min-width: 46rem) 44rem, calc(100vw - 2rem)',
  maxWidth: widest((rem) => 44 * rem),
  minWidth: narrowest(fullColumnMin),
};

/** Edition covers in the e-paper list's grid: one column below about 27rem, then at most 18.6rem. */
export const EDITION_LIST: PictureLayout = {
  sizes: '(min-width: 27.25rem) 18.75rem, calc(100vw - 2rem)',
  maxWidth: widest((rem) => columnPx(1, below(27.25, rem), rem)),
  minWidth: narrowest(fullColumnMin),
};

/** Edition covers at most 14rem wide: the paywall and the front page's promo. */
export const EDITION_COVER: PictureLayout = {
  sizes: '(min-width: 36rem) 14rem, 45vw',
  maxWidth: widest((rem) => Math.max(14 * rem, 0.45 * below(36, rem) * rem)),
};

/** Stream thumbnails in cards. */
export const STREAM_CARD = GRID_CARD;
