import sharp, { type Metadata } from 'sharp';
import { ImageError } from './errors.ts';
import type { ImageFormat } from './ladder.ts';

export type TransformLimits = { maxPixels: number; timeoutMs: number };

/** Height over width of each crop. */
const CROP_RATIO = { '16x9': 9 / 16, '4x3': 3 / 4, '1x1': 1 } as const;
export type Crop = keyof typeof CROP_RATIO;

// Two cores are typical for a Masthead server: libvips threads per image, not per request.
sharp.concurrency(1);
sharp.cache(false);

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
      ? resized.avif({ quality: 52, effort: 3 })
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
