import type { PictureLayout } from './picture.ts';

/**
 * How wide each layout shows its pictures (`sizes`, and the widest CSS width for the ladder), in
 * step with the CSS of its component. The page is at most 72rem wide (global.css). `minWidth` is
 * the narrowest it is shown on a 320 px screen (narrower screens are all dense ones): 160 px steps
 * are then never fetched, so not listed (`srcsetWidths`).
 */
/** `calc(100vw - 2rem)` on a 320 px screen. */
const FULL_COLUMN_MIN = 288;
/** A card of a grid: a third of the page from 60rem, half from 36rem (`45vw` just above: 259 px). */
const GRID_CARD: PictureLayout = {
  sizes: '(min-width: 60rem) 22rem, (min-width: 36rem) 45vw, calc(100vw - 2rem)',
  maxWidth: 560,
  minWidth: 259,
};
export const CARD_LAYOUT: Record<'lead' | 'secondary' | 'grid', PictureLayout> = {
  // Beside the text (3fr of 5) from 56rem, the full column below.
  lead: {
    sizes: '(min-width: 56rem) min(42rem, 58vw), calc(100vw - 2rem)',
    maxWidth: 900,
    minWidth: FULL_COLUMN_MIN,
  },
  secondary: GRID_CARD,
  grid: GRID_CARD,
};

/** A post's cover above the article (the column of the article page). */
export const ARTICLE_COVER: PictureLayout = {
  sizes: '(min-width: 46rem) 44rem, calc(100vw - 2rem)',
  maxWidth: 704,
  minWidth: FULL_COLUMN_MIN,
};

/** A picture inside the article text. */
export const ARTICLE_FIGURE: PictureLayout = ARTICLE_COVER;

/**
 * Edition covers in the e-paper list's grid (`minmax(min(100%, 12rem), 1fr)`, gap 1.25rem): one column
 * as wide as the page below about 27rem (up to 404 px), then columns of at most 18.6rem.
 */
export const EDITION_LIST: PictureLayout = {
  sizes: '(min-width: 27.25rem) 18.75rem, calc(100vw - 2rem)',
  maxWidth: 404,
  minWidth: FULL_COLUMN_MIN,
};

/** Edition covers at most 14rem wide: the paywall and the front page's promo. */
export const EDITION_COVER: PictureLayout = {
  sizes: '(min-width: 36rem) 14rem, 45vw',
  maxWidth: 240,
};

/** Stream thumbnails in cards. */
export const STREAM_CARD = GRID_CARD;
