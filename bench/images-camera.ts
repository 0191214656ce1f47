/**
 * Peak memory of converting one photo as current cameras make them, at the default
 * `IMAGE_SOURCE_MAX_PIXELS`: JPEGs of photo-like grain at quality 90 (a 24 MP, a 61 MP like a Sony
 * A7R V's 9504×6336, and a 100 MP one at the limit), upright and stored on their side (EXIF
 * orientation 6, which a portrait from most cameras is), and a 100 MP PNG of one colour (a
 * decompression bomb just under the limit). Each case in a fresh process, the way the pipeline
 * converts (src/lib/images/transform.ts, one libvips thread): a picture made alone (800 and 2400 px
 * AVIF) and a source decoded once for several pictures (`decodeImage`, then a 1200 px AVIF of it).
 * The figure is the process's peak RSS (VmHWM) above what it held before reading the source: the
 * source's bytes included, what one transform slot (`IMAGE_TRANSFORMS`) can cost.
 *
 *   npx node bench/images-camera.ts   (also the first part of `npm run bench:images`)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeImage, transformImage } from '../src/lib/images/transform.ts';
import { settings } from '../src/lib/settings/settings.ts';

const self = fileURLToPath(import.meta.url);
const peakMB = () =>
  Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024);

type Case = 'alone-800' | 'alone-2400' | 'decoded';

/** One case, in this (fresh) process: prints `{ peakMB, ms }`. */
async function measure(file: string, kind: Case): Promise<void> {
  const limits = { maxPixels: settings().IMAGE_SOURCE_MAX_PIXELS };
  // sharp loaded and its first picture made, so the figure is the source's alone.
  const small = await sharp({
    create: { width: 300, height: 200, channels: 3, background: '#357' },
  })
    .jpeg()
    .toBuffer();
  await transformImage(small, 160, 'avif', limits);
  const before = peakMB();
  const input = readFileSync(file);
  const started = performance.now();
  if (kind === 'decoded') {
    const decoded = await decodeImage(input, limits);
    await transformImage(input, 1200, 'avif', limits, undefined, decoded);
  } else {
    await transformImage(input, kind === 'alone-800' ? 800 : 2400, 'avif', limits);
  }
  const ms = Math.round(performance.now() - started);
  console.log(JSON.stringify({ peakMB: peakMB() - before, ms }));
}

/** A camera-like JPEG (grain, quality 90) or a one-colour PNG, made once into the temp folder. */
async function source(name: string, width: number, height: number, turned: boolean, png = false) {
  const dir = join(tmpdir(), 'masthead-bench-camera');
  const file = join(dir, `${name}.${png ? 'png' : 'jpg'}`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const image = png
    ? sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } }).png()
    : sharp({
        create: {
          width,
          height,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 12 },
        },
      }).jpeg({ quality: 90 });
  writeFileSync(file, await (turned ? image.withMetadata({ orientation: 6 }) : image).toBuffer());
  return file;
}

if (process.argv[2] === '--case') {
  await measure(process.argv[3]!, process.argv[4] as Case);
} else {
  const sources = {
    '24 MP JPEG (6000×4000)': await source('24mp', 6000, 4000, false),
    '61 MP JPEG (9504×6336)': await source('61mp', 9504, 6336, false),
    '61 MP JPEG on its side': await source('61mp-turned', 9504, 6336, true),
    '100 MP JPEG (12240×8160)': await source('100mp', 12240, 8160, false),
    '100 MP JPEG on its side': await source('100mp-turned', 12240, 8160, true),
    '100 MP PNG of one colour': await source('100mp-flat', 12240, 8160, false, true),
  };
  const rows: Record<string, Record<string, number | string>> = {};
  for (const [label, file] of Object.entries(sources)) {
    const row: Record<string, number | string> = {
      sourceMB: Number((readFileSync(file).byteLength / 1e6).toFixed(1)),
    };
    for (const kind of ['alone-800', 'alone-2400', 'decoded'] as const) {
      const out = execFileSync(process.execPath, [self, '--case', file, kind], {
        encoding: 'utf8',
      });
      const { peakMB: peak, ms } = JSON.parse(out) as { peakMB: number; ms: number };
      row[`${kind} peak MB`] = peak;
      row[`${kind} ms`] = ms;
    }
    rows[label] = row;
  }
  console.log(
    `\nOne camera photo converted alone (IMAGE_SOURCE_MAX_PIXELS ${settings().IMAGE_SOURCE_MAX_PIXELS}): peak RSS above the process before the source`,
  );
  console.table(rows);
  const results = join(fileURLToPath(new URL('./results/', import.meta.url)));
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'images-camera.json'), `${JSON.stringify(rows, null, 2)}\n`);
}
