import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createRng } from './prng.ts';

/**
 * Camera-size JPEGs for photo mode: the SVG drawing rendered at full size with a seeded film grain,
 * so the file weighs what a newsroom's upload does (1–3 MB) and compresses like a photo. Made on
 * first request, kept in a temp folder (shared by runs: same input, same bytes) and coalesced.
 */
const DIR = join(tmpdir(), 'masthead-mock-photos');
const inFlight = new Map<string, Promise<Buffer>>();
const grains = new Map<string, Buffer>();

/** A grey grain layer (mean 128), the same for every picture of a size. */
function grain(width: number, height: number): Buffer {
  const key = `${width}x${height}`;
  const cached = grains.get(key);
  if (cached) return cached;
  const rng = createRng(width * 7919 + height);
  const pixels = Buffer.alloc(width * height);
  for (let i = 0; i < pixels.length; i++) {
    // Sum of two uniforms: a soft, triangular grain of about ±64 levels.
    pixels[i] = 64 + Math.floor((rng.next() + rng.next()) * 64);
  }
  grains.set(key, pixels);
  return pixels;
}

async function render(svg: string, width: number, height: number): Promise<Buffer> {
  const texture = await sharp(grain(width, height), { raw: { width, height, channels: 1 } })
    .toColourspace('srgb')
    .png({ compressionLevel: 0 })
    .toBuffer();
  // Drawn at its own size, rasterised at the photo's: e.g. a 1200-wide page drawing → 2200 px.
  const drawn = Number(/width="(\d+)"/.exec(svg)?.[1] ?? width);
  return sharp(Buffer.from(svg), { density: (72 * width) / drawn })
    .resize(width, height, { fit: 'fill' })
    .composite([{ input: texture, blend: 'soft-light' }])
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

/** The JPEG of `svg` at `width`×`height`, from the temp folder when made before. */
export function photoJpeg(svg: string, width: number, height: number): Promise<Buffer> {
  const key = createHash('sha256').update(`${width}x${height}\n${svg}`).digest('hex').slice(0, 32);
  const pending = inFlight.get(key);
  if (pending) return pending;
  const file = join(DIR, `${key}.jpg`);
  const made = readFile(file)
    .catch(async () => {
      const bytes = await render(svg, width, height);
      await mkdir(DIR, { recursive: true });
      // Written under a temporary name first: a concurrent reader never sees half a file.
      const partial = `${file}.${process.pid}.part`;
      await writeFile(partial, bytes);
      await rename(partial, file);
      return bytes;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, made);
  return made;
}
