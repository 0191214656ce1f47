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
 * Encoder settings, chosen by CPU time per picture against bytes (bench/images-cost.ts, figures in
 * bench/static.md). AVIF at effort 1 at every size: effort 3 cost 3–5× the CPU below 0.6 megapixels
 * for 10–25 % fewer bytes (under 1 kB on a phone's picture), and effort 1 still looks closer to the
 * source than WebP does (large outputs were at effort 1 already: bench/images.md). WebP is now what
 * the few browsers without AVIF get (and the e-paper thumbnails): method 2 takes half of method 4's
 * CPU for 3–13 % more bytes at the same quality.
 */
export const AVIF_OPTIONS = { quality: 52, effort: 1 } as const;
export const WEBP_OPTIONS = { quality: 74, effort: 2 } as const;
export const JPEG_OPTIONS = { quality: 76, mozjpeg: true } as const;

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
      ? resized.avif(AVIF_OPTIONS)
      : format === 'webp'
        ? resized.webp(WEBP_OPTIONS)
        : resized.flatten({ background: '#ffffff' }).jpeg(JPEG_OPTIONS);
  try {
    return await encoded.toBuffer();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/timeout/i.test(message)) throw new ImageError(504, 'Making this image took too long.');
    if (/pixel limit/i.test(message)) throw tooManyPixels(limits);
    throw new ImageError(422, 'The image source could not be converted.');
  }
}
