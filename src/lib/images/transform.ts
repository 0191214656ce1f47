import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { ImageError } from './errors.ts';
import type { ImageFormat } from './ladder.ts';

export type TransformLimits = { maxPixels: number; timeoutMs: number };

/** Height over width of each crop. */
const CROP_RATIO = { '16x9': 9 / 16, '4x3': 3 / 4, '1x1': 1 } as const;
export type Crop = keyof typeof CROP_RATIO;

let loaded: Promise<(input: Buffer, options: SharpOptions) => Sharp> | undefined;

/**
 * sharp, loaded on the first transform: libvips and its threads cost a server that never makes a
 * picture (an image CDN in front, a warm disk store) memory for nothing.
 */
function sharpOf() {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // Two cores are typical for a Masthead server: libvips threads per image, not per request.
    sharp.concurrency(1);
    sharp.cache(false);
    return (input: Buffer, options: SharpOptions) => sharp(input, options);
  });
  return loaded;
}

/**
 * AVIF's encoder effort by output size. Effort 3 costs about 4–7× WebP's time on a large picture
 * (a 1200 px page scan: 2 s against 0.3 s on a busy two-core server), effort 1 about WebP's own
 * time for 2–5 % more bytes (still 15–20 % under WebP): large outputs, e-paper pages above all,
 * take effort 1 so a cold page is not slower in AVIF than in WebP (figures in bench/images.md).
 */
const AVIF_FAST_ABOVE_PIXELS = 600_000;
export const avifEffort = (pixels: number) => (pixels > AVIF_FAST_ABOVE_PIXELS ? 1 : 3);

/** Width × height of the output: never enlarged; a crop's shape, or the source's. */
function outputPixels(meta: Metadata, width: number, crop?: Crop): number {
  // Upright, as `rotate()` turns it.
  const { width: sourceWidth, height: sourceHeight } = meta.autoOrient;
  const out = Math.min(width, sourceWidth);
  const ratio = crop ? CROP_RATIO[crop] : sourceHeight / sourceWidth;
  return out * Math.round(out * ratio);
}

const tooManyPixels = (limits: TransformLimits) =>
  new ImageError(422, `The image source has more than ${limits.maxPixels} pixels.`);

/**
 * `input` at `width` (never enlarged) in `format`, turned upright and without metadata. A source
 * of more than `maxPixels` (a decompression bomb), or one that is no image, is a 422.
 */
export async function transformImage(
  input: Buffer,
  width: number,
  format: ImageFormat,
  limits: TransformLimits,
  crop?: Crop,
): Promise<Buffer> {
  const sharp = await sharpOf();
  const image = sharp(input, {
    limitInputPixels: limits.maxPixels,
    failOn: 'error',
    animated: false,
  });
  let meta: Metadata;
  try {
    meta = await image.metadata();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels(limits);
    throw new ImageError(422, 'The image source is not a picture this site can read.');
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > limits.maxPixels) throw tooManyPixels(limits);
  const resized = image
    .rotate()
    .resize({
      width,
      ...(crop
        ? {
            height: Math.round(width * CROP_RATIO[crop]),
            fit: 'cover' as const,
            position: 'attention' as const,
          }
        : {}),
      withoutEnlargement: true,
    })
    .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) });
  const encoded =
    format === 'avif'
      ? resized.avif({ quality: 52, effort: avifEffort(outputPixels(meta, width, crop)) })
      : format === 'webp'
        ? resized.webp({ quality: 74, effort: 4 })
        : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 76, mozjpeg: true });
  try {
    return await encoded.toBuffer();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/timeout/i.test(message)) throw new ImageError(504, 'Making this image took too long.');
    if (/pixel limit/i.test(message)) throw tooManyPixels(limits);
    throw new ImageError(422, 'The image source could not be converted.');
  }
}
