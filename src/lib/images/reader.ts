import type { EditionPage } from '../publishing/schema.ts';
import type { ImageTarget } from './address.ts';
import { IMAGE_WIDTHS, srcsetOf } from './ladder.ts';
import { imageHref, intrinsicSize, type ImageLinks } from './picture.ts';

/**
 * A page: a phone's screen up to a zoomed page on a dense screen. A thumbnail (about 80 CSS px) in
 * WebP only: at 160 px AVIF saves nothing on a page scan for four times the encoding (bench/images.md).
 */
const KINDS = {
  page: { widths: IMAGE_WIDTHS.filter((width) => width >= 320), avif: true, fallback: 1200 },
  thumb: { widths: [160, 320], avif: false, fallback: 160 },
} as const;

/** `private`: by edition and page (the route checks the session; the upstream URL stays hidden). */
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
  const set = (format: 'avif' | 'webp') =>
    srcsetOf(widths, page.width, (w) => imageHref(links, target, w, format));
  return {
    ...(avif ? { avif: set('avif') } : {}),
    webp: set('webp'),
    src: imageHref(links, target, fallback, 'jpeg'),
    ...size,
  };
}
