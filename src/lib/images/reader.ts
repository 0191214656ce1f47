import type { EditionPage } from '../publishing/schema.ts';
import type { ImageTarget } from './address.ts';
import { IMAGE_WIDTHS, srcsetOf, type ImageWidth } from './ladder.ts';
import { imageHref, intrinsicSize, type ImageLinks } from './picture.ts';

/**
 * What the reader shows of one page: AVIF and WebP `srcset`s (the `<source>`s, best first; pages
 * only), a JPEG `src`, the page's size.
 */
type ReaderImage = {
  avif?: string;
  webp: string;
  src: string;
  width: number;
  height: number;
};

/** Page widths: a phone's screen up to a zoomed page on a large, dense screen. */
const PAGE_WIDTHS = IMAGE_WIDTHS.filter((width) => width >= 320);
/** Thumbnails are about 80 CSS px wide: 160 px, 320 on dense screens. */
const THUMB_WIDTHS: ImageWidth[] = [160, 320];

/**
 * `public`: a free edition, through the signed public route (cacheable, files in a static copy).
 * `private`: a subscriber-only edition, by edition and page number: the route checks the session on
 * every request, and the upstream URL never appears in the page.
 */
export type ReaderAccess = 'public' | 'private';

function readerImage(
  links: ImageLinks,
  edition: string,
  page: EditionPage,
  access: ReaderAccess,
  widths: readonly ImageWidth[],
  withAvif: boolean,
): ReaderImage {
  const target: ImageTarget =
    access === 'private'
      ? { kind: 'edition-page', edition, page: page.page_number }
      : { kind: 'source', source: page.image_url };
  const size = intrinsicSize({
    url: page.image_url,
    width: page.width,
    height: page.height,
    assumedRatio: 4 / 3,
  });
  // An unknown width caps nothing: the route answers a wider step with the source as it is.
  const sourceWidth = page.width && page.width > 0 ? page.width : Infinity;
  const set = (format: 'avif' | 'webp') =>
    srcsetOf(widths, sourceWidth, (w) => imageHref(links, target, w, format));
  return {
    ...(withAvif ? { avif: set('avif') } : {}),
    webp: set('webp'),
    // For browsers that take neither: a thumbnail at 160 px, a page at 1200.
    src: imageHref(links, target, withAvif ? 1200 : 160, 'jpeg'),
    ...size,
  };
}

/** A page at every width the reader may need (the browser picks by `readerSizes`). */
export function readerPage(
  links: ImageLinks,
  edition: string,
  page: EditionPage,
  access: ReaderAccess,
): ReaderImage {
  return readerImage(links, edition, page, access, PAGE_WIDTHS, true);
}

/**
 * A page's thumbnail: WebP only. At 160 px AVIF saves nothing measurable on a page scan (2 kB
 * either way) and costs about four times the encoding (bench/images.md).
 */
export function readerThumb(
  links: ImageLinks,
  edition: string,
  page: EditionPage,
  access: ReaderAccess,
): ReaderImage {
  return readerImage(links, edition, page, access, THUMB_WIDTHS, false);
}
