/**
 * What one post's pictures cost to make in a static copy, before and after issue 38's cuts: CPU time
 * (this process, all threads: fairer than wall time on a shared machine) and bytes of each derived
 * picture a post's pages name, for the mock's SVG cover (what `bench/static.ts` builds from) and its
 * photo-mode 3000×2000 JPEG, plus how far each output is from the source (RMS difference, 0–255, at
 * the output's size: lower is closer).
 *   npx node bench/images-cost.ts [rounds]      (median of `rounds`, 3 unless given)
 */
import sharp, { type Sharp } from 'sharp';
import { photoJpeg } from '../mock/lib/photo.ts';
import { svgScene } from '../mock/lib/svg.ts';
import { AVIF_OPTIONS, JPEG_OPTIONS, WEBP_OPTIONS } from '../src/lib/images/transform.ts';

sharp.concurrency(1);
sharp.cache(false);

type Format = 'avif' | 'webp' | 'jpeg';
type Settings = Record<Format, (image: Sharp, pixels: number) => Sharp>;

const jpeg = (image: Sharp) => image.flatten({ background: '#ffffff' }).jpeg(JPEG_OPTIONS);
const SETTINGS: Record<'before' | 'after', Settings> = {
  before: {
    avif: (image, pixels) => image.avif({ quality: 52, effort: pixels > 600_000 ? 1 : 3 }),
    webp: (image) => image.webp({ quality: 74, effort: 4 }),
    jpeg,
  },
  after: {
    avif: (image) => image.avif(AVIF_OPTIONS),
    webp: (image) => image.webp(WEBP_OPTIONS),
    jpeg,
  },
};

/**
 * What a post's pages name of its 1600 px (or wider) cover: the article's and the cards' `srcset`s
 * (AVIF, WebP, JPEG), `og:image` (the 1200 px JPEG) and the JSON-LD crops (three 1200 px JPEGs).
 */
const NAMED = {
  before: {
    modern: [160, 320, 480, 640, 800, 1200, 1600],
    jpeg: [160, 320, 480, 640, 800, 1200, 1600],
  },
  // Ladders from 320 (no layout of a cover is shown below 259 CSS px), one JPEG fallback per
  // layout (cards 640, article 800) besides og:image's 1200.
  after: { modern: [320, 480, 640, 800, 1200, 1600], jpeg: [640, 800, 1200] },
} as const;
const CROPS = 3;

const card = (width: number, height: number) => ({
  width,
  height,
  color: '#1d3557',
  accent: '#e63946',
  kicker: 'World',
  title: 'A headline long enough to wrap over two lines of the cover',
  footer: 'Daily Planet',
});

/** RMS difference (0–255, RGB) between `out` and the source resized the same way, losslessly. */
async function distance(source: Buffer, out: Buffer, width: number): Promise<number> {
  const raw = (input: Buffer, w: number) =>
    sharp(input)
      .resize({ width: w })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer();
  const [a, b] = await Promise.all([raw(source, width), raw(out, width)]);
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(sum / n);
}

async function measure(
  source: Buffer,
  width: number,
  encode: (image: Sharp) => Sharp,
  rounds: number,
) {
  const runs: { ms: number; out: Buffer }[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    const out = await encode(
      sharp(source, { failOn: 'error' }).rotate().resize({ width, withoutEnlargement: true }),
    ).toBuffer();
    const used = process.cpuUsage(start);
    runs.push({ ms: (used.user + used.system) / 1000, out });
  }
  runs.sort((a, b) => a.ms - b.ms);
  const median = runs[Math.floor(runs.length / 2)]!;
  return {
    ms: median.ms,
    bytes: median.out.length,
    distance: await distance(source, median.out, width),
  };
}

const rounds = Number(process.argv[2] ?? 3);
const sources = {
  svg: { bytes: Buffer.from(svgScene(card(1600, 900))), ratio: 900 / 1600 },
  photo: { bytes: await photoJpeg(svgScene(card(3000, 2000)), 3000, 2000), ratio: 2000 / 3000 },
};

const results: Record<string, unknown> = {};
for (const [name, source] of Object.entries(sources)) {
  const rows: string[] = [
    '| width | format | before: CPU ms, bytes, distance | after: CPU ms, bytes, distance |',
  ];
  const perPost = { before: { ms: 0, count: 0 }, after: { ms: 0, count: 0 } };
  for (const width of NAMED.before.modern) {
    const pixels = width * Math.round(width * source.ratio);
    for (const format of ['avif', 'webp', 'jpeg'] as const) {
      const cells: string[] = [];
      for (const when of ['before', 'after'] as const) {
        const m = await measure(
          source.bytes,
          width,
          (image) => SETTINGS[when][format](image, pixels),
          rounds,
        );
        const named = format === 'jpeg' ? NAMED[when].jpeg : NAMED[when].modern;
        if ((named as readonly number[]).includes(width)) {
          perPost[when].ms += m.ms * (format === 'jpeg' && width === 1200 ? 1 + CROPS : 1);
          perPost[when].count += format === 'jpeg' && width === 1200 ? 1 + CROPS : 1;
          cells.push(`${m.ms.toFixed(0)} ms, ${m.bytes} B, ${m.distance.toFixed(2)}`);
        } else cells.push(`(not named: ${m.ms.toFixed(0)} ms)`);
      }
      rows.push(`| ${width} | ${format} | ${cells.join(' | ')} |`);
    }
  }
  console.log(`\n## ${name} source (${source.bytes.length} bytes)\n${rows.join('\n')}`);
  results[name] = {
    before: { pictures: perPost.before.count, cpuMs: Math.round(perPost.before.ms) },
    after: { pictures: perPost.after.count, cpuMs: Math.round(perPost.after.ms) },
  };
}
console.log(`\nPer post (crops counted as the 1200 px JPEG): ${JSON.stringify(results)}`);
