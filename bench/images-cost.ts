/**
 * What one post's pictures cost to make in a static copy: CPU time (this process, all threads:
 * fairer than wall time on a shared machine) of every derived picture a post's pages name, made by
 * `src/lib/images/transform.ts` before (each picture decodes its source, AVIF at effort 1) and
 * after issue 38's third session (the source decoded once for all, the decode counted; a crop that
 * makes the same picture as another made once; AVIF at effort 0), for the mock's SVG cover (what
 * `bench/static.ts` builds from) and its photo-mode 3000×2000 JPEG; bytes, how far each "after"
 * picture is from its "before" and both from the source resized losslessly (RMS, 0–255).
 *   npx node bench/images-cost.ts [rounds]      (median of `rounds`, 3 unless given)
 */
import sharp from 'sharp';
import { photoJpeg } from '../mock/lib/photo.ts';
import { svgScene } from '../mock/lib/svg.ts';
import type { ImageCrop } from '../src/lib/images/address.ts';
import type { ImageFormat } from '../src/lib/images/ladder.ts';
import {
  decodeImage,
  sameCrop,
  transformImage,
  type Decoded,
} from '../src/lib/images/transform.ts';

const LIMITS = { maxPixels: 40_000_000 };
/** AVIF as it was made before (no cover asks for a crop in AVIF). */
const AVIF_BEFORE = { quality: 52, effort: 1 } as const;

/**
 * What a post's pages name of its 1600 px (or wider) cover: the article's and the cards' `srcset`s
 * (AVIF and WebP from 320 px), one JPEG per layout (cards 640, article 800), `og:image` (the
 * 1200 px JPEG) and the JSON-LD crops (three 1200 px JPEGs).
 */
const NAMED: { width: number; format: ImageFormat; crop?: ImageCrop }[] = [
  ...[320, 480, 640, 800, 1200, 1600].flatMap((width) =>
    (['avif', 'webp'] as const).map((format) => ({ width, format })),
  ),
  ...[640, 800, 1200].map((width) => ({ width, format: 'jpeg' as const })),
  ...(['16x9', '4x3', '1x1'] as const).map((crop) => ({
    width: 1200,
    format: 'jpeg' as const,
    crop,
  })),
];

const card = (width: number, height: number) => ({
  width,
  height,
  color: '#1d3557',
  accent: '#e63946',
  kicker: 'World',
  title: 'A headline long enough to wrap over two lines of the cover',
  footer: 'Daily Planet',
});

/** RMS difference (0–255, RGB) between two pictures, `b` at `a`'s size. */
async function distance(a: Buffer, b: Buffer): Promise<number> {
  const { width = 1, height = 1 } = await sharp(a).metadata();
  const raw = (input: Buffer) =>
    sharp(input)
      .resize({ width, height, fit: 'fill' })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer();
  const [x, y] = await Promise.all([raw(a), raw(b)]);
  let sum = 0;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) sum += ((x[i] ?? 0) - (y[i] ?? 0)) ** 2;
  return Math.sqrt(sum / n);
}

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

type Post = { ms: number; decodeMs: number; pictures: { ms: number; out: Buffer }[] };

/**
 * Every named picture of `source`: each decoding it (`once` false, as before), or as the pipeline
 * now makes a static copy's: decoded once for all, a crop that makes the same picture as another
 * made once.
 */
async function post(source: Buffer, once: boolean): Promise<Post> {
  const start = process.cpuUsage();
  const decoded: Decoded | undefined = once ? await decodeImage(source, LIMITS) : undefined;
  const decodeMs = cpuMs(start);
  const made = new Map<string, Buffer>();
  const pictures: Post['pictures'] = [];
  for (const { width, format, crop } of NAMED) {
    const begun = process.cpuUsage();
    const same = decoded ? sameCrop(decoded, width, crop) : crop;
    const key = `${width} ${format} ${same}`;
    const out =
      made.get(key) ??
      (!once && format === 'avif'
        ? await sharp(source)
            .rotate()
            .resize({ width, withoutEnlargement: true })
            .avif(AVIF_BEFORE)
            .toBuffer()
        : await transformImage(source, width, format, LIMITS, same, decoded));
    made.set(key, out);
    pictures.push({ ms: cpuMs(begun), out });
  }
  return { ms: cpuMs(start), decodeMs, pictures };
}

const rounds = Number(process.argv[2] ?? 3);
const sources = {
  svg: Buffer.from(svgScene(card(1600, 900))),
  photo: await photoJpeg(svgScene(card(3000, 2000)), 3000, 2000),
};

const median = <T extends { ms: number }>(runs: T[]): T =>
  [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;

const results: Record<string, unknown> = {};
for (const [name, source] of Object.entries(sources)) {
  const direct: Post[] = [];
  const once: Post[] = [];
  for (let round = 0; round < rounds; round++) {
    // Interleaved, so a busier moment of the machine falls on both.
    direct.push(await post(source, false));
    once.push(await post(source, true));
  }
  const rows = [
    '| picture | before: CPU ms, bytes | after: CPU ms, bytes, RMS difference from before | distance from the source, before → after |',
  ];
  for (const [i, { width, format, crop }] of NAMED.entries()) {
    const [before, after] = [direct, once].map((runs) => median(runs.map((r) => r.pictures[i]!)));
    const off = await distance(before!.out, after!.out);
    // From the source resized losslessly to the picture's size (not for crops).
    const fromSource = crop
      ? '–'
      : await Promise.all(
          [before!, after!].map(async ({ out }) =>
            (await distance(out, await sharp(source).png().toBuffer())).toFixed(2),
          ),
        ).then((pair) => pair.join(' → '));
    rows.push(
      `| ${width} ${format}${crop ? ` ${crop}` : ''} | ${before!.ms.toFixed(0)} ms, ${before!.out.length} B | ${after!.ms.toFixed(0)} ms, ${after!.out.length} B, ${off.toFixed(2)} | ${fromSource} |`,
    );
  }
  console.log(`\n## ${name} source (${source.length} bytes)\n${rows.join('\n')}`);
  console.log(`decode (once): ${median(once).decodeMs.toFixed(0)} ms`);
  results[name] = {
    pictures: NAMED.length,
    beforeCpuMs: Math.round(median(direct).ms),
    afterCpuMs: Math.round(median(once).ms),
  };
}
console.log(`\nPer post: ${JSON.stringify(results)}`);
