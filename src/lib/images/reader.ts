import type { EditionPage } from '../publishing/schema.ts';
import type { ImageTarget } from './address.ts';
import { IMAGE_WIDTHS, srcsetOf } from './ladder.ts';
import { imageHref, intrinsicSize, type ImageLinks } from './picture.ts';

/**
 * A page: a phone's screen up to a zoomed page on a large, dense screen (the browser picks by
 * `readerSizes`). A thumbnail, about 80 CSS px wide: 160 px, 320 on dense screens, WebP only: at
 * 160 px AVIF saves nothing measurable on a page scan (2 kB either way) and costs about four times
 * the encoding (bench/images.md). `fallback`: the JPEG `src`'s width, for browsers that take neither.
 */
const KINDS = {
  page: { widths: IMAGE_WIDTHS.filter((width) => width >= 320), avif: true, fallback: 1200 },
  thumb: { widths: [160, 320], avif: false, fallback: 160 },
} as const;

/**
 * `public`: a free edition, through the signed public route (cacheable, files in a static copy).
 * `private`: a subscriber-only edition, by edition and page number: the route checks the session on
 * every request, and the upstream URL never appears in the page.
 */
export type ReaderAccess = 'public' | 'private';

/** A page (or its thumbnail) for the reader: AVIF (pages only) and WebP `srcset`s, a JPEG `src`. */
export function readerImage(
  links: ImageLinks,
  edition: string,
  page: EditionPage,
  access: ReaderAccess,
  kind: keyof typeof KINDS = 'page',
) {
  const { widths, avif, fallback } = KINDS[kind];
  const target: ImageTarget =
    access === 'private'
      ? { kind: 'edition-page', edition, page: page.page_number }
      : { kind: 'source', source: page.image_url };
  const size = intrinsicSize({ ...page, url: page.image_url, assumedRatio: 4 / 3 });
  // An unknown width caps nothing: the route answers a wider step with the source as it is.
  const sourceWidth = page.width && page.width > 0 ? page.width : Infinity;
  const set = (format: 'avif' | 'webp') =>
    srcsetOf(widths, sourceWidth, (w) => imageHref(links, target, w, format));
  return {
    ...(avif ? { avif: set('avif') } : {}),
    webp: set('webp'),
    src: imageHref(links, target, fallback, 'jpeg'),
    ...size,
  };
}
