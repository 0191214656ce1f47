/**
 * The fixed ladder of image widths the site makes, so caches stay bounded: every `srcset` picks from
 * it, and the image route refuses any other width. 160 is the reader's thumbnail, 1200 the Open
 * Graph width, 2400 the zoomed e-paper page.
 */
export const IMAGE_WIDTHS = [160, 320, 480, 640, 800, 1200, 1600, 2400] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export const LARGEST_WIDTH: ImageWidth = 2400;

/** Output formats, best first: `<picture>` offers AVIF and WebP, the `<img>` itself JPEG. */
export const IMAGE_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const FORMAT_EXTENSION: Record<ImageFormat, string> = {
  avif: 'avif',
  webp: 'webp',
  jpeg: 'jpg',
};
export const formatType = (format: ImageFormat) => `image/${format}`;

export const isLadderWidth = (value: number): value is ImageWidth =>
  IMAGE_WIDTHS.some((width) => width === value);

export const formatOfExtension = (extension: string): ImageFormat | undefined =>
  IMAGE_FORMATS.find((format) => FORMAT_EXTENSION[format] === extension);

/** The smallest ladder width of at least `px` (the largest when none is). */
export function widthAtLeast(px: number): ImageWidth {
  return IMAGE_WIDTHS.find((width) => width >= px) ?? LARGEST_WIDTH;
}

/**
 * A source's width, unbounded when the upstream does not say (a width of 0 or less is its "unknown"
 * too): the route answers a step wider than the source with the source as it is, never enlarged.
 */
const known = (sourceWidth: number | null | undefined) =>
  sourceWidth && sourceWidth > 0 ? sourceWidth : Infinity;

/**
 * The widths a `srcset` lists for a picture shown at most `maxDisplay` CSS pixels wide (twice that
 * for dense screens), up to the first step at or above the source's width (never enlarged), and
 * none below the step a `minDisplay`-wide layout picks at 1× (never fetched, only made).
 */
export function srcsetWidths(
  maxDisplay: number,
  sourceWidth?: number | null,
  minDisplay = 0,
): ImageWidth[] {
  const cap = Math.min(widthAtLeast(maxDisplay * 2), widthAtLeast(known(sourceWidth)));
  const floor = Math.min(widthAtLeast(minDisplay), cap);
  return IMAGE_WIDTHS.filter((width) => width >= floor && width <= cap);
}

/**
 * A `srcset` over ascending ladder `widths` of a source `sourceWidth` wide: each descriptor is the
 * width the route really answers with (never enlarged), none twice (HTML forbids it).
 */
export function srcsetOf(
  widths: readonly ImageWidth[],
  sourceWidth: number | null | undefined,
  href: (width: ImageWidth) => string,
): string {
  const entries = new Map<number, string>();
  for (const width of widths) {
    const descriptor = Math.min(width, known(sourceWidth));
    if (!entries.has(descriptor)) entries.set(descriptor, `${href(width)} ${descriptor}w`);
  }
  return [...entries.values()].join(', ');
}
