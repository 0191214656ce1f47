import type { OutputInfo, Sharp, SharpOptions } from 'sharp';
import { IMAGE_CROPS, type ImageCrop } from './address.ts';
import { ImageError } from './errors.ts';
import { LARGEST_WIDTH, type ImageFormat } from './ladder.ts';

/**
 * What bounds making a picture: its source's pixels, not `IMAGE_TIMEOUT_MS`. That wall-clock limit
 * killed a big photo's only transform on a busy machine (a 504 for every visitor, each retry
 * starting over), while the pixel limit already bounds what one costs; `STUCK` is a backstop only.
 */
export type TransformLimits = { maxPixels: number };

/** Only a backstop for a source that never finishes drawing (an SVG's filters): far past any photo. */
const STUCK = { seconds: 120 };

/** Height over width of each crop. */
const CROP_RATIO: Record<ImageCrop, number> = { '16x9': 9 / 16, '4x3': 3 / 4, '1x1': 1 };

let loaded: Promise<(input: Buffer, options: SharpOptions) => Sharp> | undefined;

/** sharp, loaded on the first transform: a server that never makes a picture skips libvips. */
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
 * Encoder settings, chosen by CPU time per picture against bytes (bench/images-cost.ts,
 * bench/static.md, bench/images.md): AVIF effort 1 took 1.2–1.8× effort 0's CPU for 1–5 % fewer
 * bytes; WebP method 2 takes half of method 4's CPU for 3–13 % more bytes.
 */
export const AVIF_OPTIONS = { quality: 52, effort: 0 } as const;
export const WEBP_OPTIONS = { quality: 74, effort: 2 } as const;
export const JPEG_OPTIONS = { quality: 76, mozjpeg: true } as const;

/**
 * A source read once for all its pictures: its size upright and, for a raster, its pixels upright at
 * `scale` of that size (at most the ladder's widest). An SVG has none: drawn at each size, cheaper.
 */
export type Decoded = {
  width: number;
  height: number;
  raster?: { data: Buffer; info: OutputInfo; scale: number } | undefined;
};

/**
 * sharp's errors as the route's: stuck 504; too many pixels (a decompression bomb) or
 * `unreadable` 422. Without `unreadable` (our own pixels) a failure is our bug: the route's 500.
 */
async function settled<T>(work: Promise<T>, limits: TransformLimits, unreadable?: string) {
  try {
    return await work;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/timeout/i.test(message)) throw new ImageError(504, 'Making this image took too long.');
    if (unreadable === undefined) throw error;
    if (!/pixel limit/i.test(message)) throw new ImageError(422, unreadable);
    throw new ImageError(422, `The image source has more than ${limits.maxPixels} pixels.`);
  }
}

const UNCONVERTIBLE = 'The image source could not be converted.';

/** `input` opened upright, its size checked: a decompression bomb or no image is a 422. */
async function opened(input: Buffer, limits: TransformLimits) {
  const sharp = await sharpOf();
  const image = sharp(input, {
    limitInputPixels: limits.maxPixels,
    failOn: 'error',
    animated: false,
  });
  const unreadable = 'The image source is not a picture this site can read.';
  const meta = await settled(image.metadata(), limits, unreadable);
  return { image: image.rotate(), meta };
}

/** `input` decoded for several pictures: decoding costs about as much as one encoding. */
export async function decodeImage(input: Buffer, limits: TransformLimits): Promise<Decoded> {
  const { image, meta } = await opened(input, limits);
  const { width, height } = meta.autoOrient;
  if (meta.format === 'svg') return { width, height };
  const { data, info } = await settled(
    image
      .resize({ width: LARGEST_WIDTH, withoutEnlargement: true })
      .timeout(STUCK)
      .raw()
      .toBuffer({ resolveWithObject: true }),
    limits,
    UNCONVERTIBLE,
  );
  return { width, height, raster: { data, info, scale: info.width / width } };
}

/** Width and height of a picture `width` wide (cropped to `crop`): sharp never enlarges. */
function outputSize(
  { width: sourceWidth, height: sourceHeight }: Decoded,
  width: number,
  crop?: ImageCrop,
) {
  const w = Math.min(width, sourceWidth);
  const h = crop
    ? Math.round(width * CROP_RATIO[crop])
    : Math.round((sourceHeight * w) / sourceWidth);
  return `${w}x${Math.min(h, sourceHeight)}`;
}

/**
 * The crop that makes the same picture as `crop`: none when it cuts nothing, else the first of the
 * same size (a 1600×900 source has no room for a 1200 px square: its 1:1 is its 4:3).
 */
export function sameCrop(
  decoded: Decoded,
  width: number,
  crop: ImageCrop | undefined,
): ImageCrop | undefined {
  if (!crop) return undefined;
  const size = outputSize(decoded, width, crop);
  if (outputSize(decoded, width) === size) return undefined;
  return IMAGE_CROPS.find((other) => outputSize(decoded, width, other) === size);
}

/** Whether `decoded` has the pixels a picture `width` wide (cropped to `crop`) needs. */
function suffices(
  { width: sourceWidth, height: sourceHeight, raster }: Decoded,
  width: number,
  crop?: ImageCrop,
) {
  if (!raster) return false;
  const height = crop ? width * CROP_RATIO[crop] : 0;
  return raster.scale === 1 || Math.max(width / sourceWidth, height / sourceHeight) <= raster.scale;
}

/** `input` at `width` (never enlarged) in `format`, upright, without metadata (from `decoded` if enough). */
export async function transformImage(
  input: Buffer,
  width: number,
  format: ImageFormat,
  limits: TransformLimits,
  crop?: ImageCrop,
  decoded?: Decoded,
): Promise<Buffer> {
  const raster = decoded && suffices(decoded, width, crop) ? decoded.raster : undefined;
  const image = raster
    ? (await sharpOf())(raster.data, { raw: raster.info })
    : (await opened(input, limits)).image;
  const resized = image
    // A crop covers its box (sharp's default fit), cut around what draws the eye.
    .resize({
      width,
      height: crop && Math.round(width * CROP_RATIO[crop]),
      position: 'attention',
      withoutEnlargement: true,
    })
    .timeout(STUCK);
  const encoded =
    format === 'avif'
      ? resized.avif(AVIF_OPTIONS)
      : format === 'webp'
        ? resized.webp(WEBP_OPTIONS)
        : resized.flatten({ background: '#ffffff' }).jpeg(JPEG_OPTIONS);
  return settled(encoded.toBuffer(), limits, raster ? undefined : UNCONVERTIBLE);
}
