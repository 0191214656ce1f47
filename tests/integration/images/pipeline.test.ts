import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageError } from '../../../src/lib/images/errors.ts';
import { ImagePipeline, type PipelineOptions } from '../../../src/lib/images/pipeline.ts';
import type { ImageFormat } from '../../../src/lib/images/ladder.ts';
import { PRIORITY } from '../../../src/lib/images/queue.ts';
import { decodeImage, transformImage } from '../../../src/lib/images/transform.ts';

/** A PNG whose header claims `width`×`height` but holds almost no data: a decompression bomb. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const bomb = Buffer.from(png);
  bomb.writeUInt32BE(width, 16);
  bomb.writeUInt32BE(height, 20);
  bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
  return bomb;
}

let server: Server;
let origin = '';
let dir = '';
const hits = new Map<string, number>();
let photo: Buffer;
let bomb: Buffer;
/**
 * A source that takes seconds to draw on any machine (its noise is computed at every pixel): the
 * work a camera-size photo costs on a busy server, without waiting on the machine's load.
 */
const heavy = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000">` +
    `<filter id="n"><feTurbulence baseFrequency="0.01" numOctaves="10"/></filter>` +
    `<rect width="100%" height="100%" filter="url(#n)"/>`.repeat(5) +
    `</svg>`,
);
/** Pictures by path: a 16:9 cover, one stored on its side (EXIF orientation 6), a panorama. */
const shapes = new Map<string, Buffer>();

beforeAll(async () => {
  photo = await sharp({
    create: { width: 3000, height: 2000, channels: 3, background: '#3a6ea5' },
  })
    .jpeg()
    .toBuffer();
  bomb = await pngClaiming(60_000, 60_000);
  const plain = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } });
  shapes.set('/wide.jpg', await plain(1600, 900).jpeg().toBuffer());
  shapes.set(
    '/turned.jpg',
    await plain(300, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer(),
  );
  shapes.set('/panorama.png', await plain(2600, 400).png().toBuffer());
  server = createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith('/slow.jpg?')) return void setTimeout(() => res.end(photo), 500);
    if (path.split('?')[0] === '/photo.jpg') return void res.end(photo);
    if (path === '/bomb.png') return void res.end(bomb);
    if (path === '/heavy.svg') return void res.end(heavy);
    if (path === '/stalls.jpg') {
      res.write(photo.subarray(0, 1000));
      return void setTimeout(() => res.destroy(), 3_000);
    }
    if (path === '/trickle.jpg' || path === '/trickle-long.jpg') {
      // Never silent for long, but 2 s (6 s) in all: a camera photo over a slow link.
      const parts = path === '/trickle.jpg' ? 20 : 60;
      const size = Math.ceil(photo.length / parts);
      let sent = 0;
      const next = () => {
        res.write(photo.subarray(sent * size, (sent + 1) * size));
        if (++sent < parts) setTimeout(next, 100);
        else res.end();
      };
      return void next();
    }
    const shape = shapes.get(path.split('?')[0] ?? '');
    if (shape) return void res.end(shape);
    if (path === '/huge.jpg') return void res.end(Buffer.alloc(3_000_000, 1));
    if (path === '/text.jpg') return void res.end('not a picture');
    if (path === '/slow.jpg') return void setTimeout(() => res.end(photo), 2_000);
    if (path === '/away.jpg') {
      res.writeHead(302, { Location: 'https://elsewhere.example/a.jpg' });
      return void res.end();
    }
    if (path === '/limited.jpg') {
      res.writeHead(429, { 'Retry-After': '30' });
      return void res.end();
    }
    if (path === '/broken.jpg') {
      res.writeHead(500);
      return void res.end();
    }
    res.writeHead(404);
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'masthead-images-'));
});

afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const options = (over: Partial<PipelineOptions> = {}): PipelineOptions => ({
  cacheDir: join(dir, String(Math.random()).slice(2)),
  cacheMaxBytes: 50_000_000,
  maxBytes: 2_000_000,
  maxPixels: 40_000_000,
  timeoutMs: 10_000,
  transforms: 2,
  ...over,
});
const sameOrigin = (url: string) => url.startsWith(origin);
const derive = (pipeline: ImagePipeline, path: string, width = 800, format: ImageFormat = 'webp') =>
  pipeline.derive({ source: `${origin}${path}`, width, format, allowed: sameOrigin });

describe('the image pipeline', () => {
  it('makes each size once from one fetch of the original, however many ask at once', async () => {
    const pipeline = new ImagePipeline(options());
    hits.clear();
    const many = await Promise.all(
      Array.from({ length: 10 }, () => derive(pipeline, '/photo.jpg')),
    );
    expect(new Set(many.map((b) => b.toString('base64'))).size).toBe(1);
    expect(await sharp(many[0]).metadata()).toMatchObject({ format: 'webp', width: 800 });
    await derive(pipeline, '/photo.jpg', 320, 'webp');
    await derive(pipeline, '/photo.jpg', 800, 'webp');
    expect(hits.get('/photo.jpg')).toBe(1);
    expect(pipeline.counts).toEqual({ fetches: 1, transforms: 2 });
  });

  it('serves a warm image from disk after a restart, with no fetch and no transform', async () => {
    const shared = options();
    await derive(new ImagePipeline(shared), '/photo.jpg', 480, 'avif');
    const restarted = new ImagePipeline(shared);
    const bytes = await derive(restarted, '/photo.jpg', 480, 'avif');
    expect((await sharp(bytes).metadata()).width).toBe(480);
    expect(restarted.counts).toEqual({ fetches: 0, transforms: 0 });
  });

  it('crops to a shape for search engines', async () => {
    const bytes = await new ImagePipeline(options()).derive({
      source: `${origin}/photo.jpg`,
      width: 1200,
      format: 'jpeg',
      crop: '1x1',
      allowed: sameOrigin,
    });
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 1200, height: 1200 });
  });

  it('makes a crop that cuts nothing, or the same as another crop, once', async () => {
    const pipeline = new ImagePipeline(options());
    const sizes = await Promise.all(
      ([undefined, '16x9', '4x3', '1x1'] as const).map(async (crop) => {
        const bytes = await pipeline.derive({
          source: `${origin}/wide.jpg`,
          width: 1200,
          format: 'jpeg',
          crop,
          allowed: sameOrigin,
        });
        const { width, height } = await sharp(bytes).metadata();
        return `${width}x${height}`;
      }),
    );
    // A 1600×900 source: its 16:9 is the picture uncropped; no room for a 1200 px square.
    expect(sizes).toEqual(['1200x675', '1200x675', '1200x900', '1200x900']);
    expect(pipeline.counts.transforms).toBe(2);
  });

  it('makes the pictures of a source asked together upright, from the pixels each needs', async () => {
    const pipeline = new ImagePipeline(options());
    const sizeOf = async (path: string, width: number, crop?: '1x1') => {
      const bytes = await pipeline.derive({
        source: `${origin}${path}`,
        width,
        format: 'webp',
        crop,
        allowed: sameOrigin,
      });
      const { width: w, height: h } = await sharp(bytes).metadata();
      return `${w}x${h}`;
    };
    expect(await Promise.all([sizeOf('/turned.jpg', 160), sizeOf('/turned.jpg', 320)])).toEqual([
      '160x240',
      '200x300',
    ]);
    // Wider than the largest picture made (2400): a square crop still has the source's height.
    expect(
      await Promise.all([sizeOf('/panorama.png', 320), sizeOf('/panorama.png', 1200, '1x1')]),
    ).toEqual(['320x49', '1200x400']);
  });

  it('answers a step wider than the source (a dense screen, the size unknown) with the source as it is', async () => {
    const pipeline = new ImagePipeline(options());
    const sizes = await Promise.all(
      ([1600, 2400] as const).map(async (width) => {
        const { width: w, height: h } = await sharp(
          await derive(pipeline, '/wide.jpg', width),
        ).metadata();
        return `${w}x${h}`;
      }),
    );
    expect(sizes).toEqual(['1600x900', '1600x900']);
  });

  it('keeps the disk within its byte limit, least recently used out', async () => {
    const pipeline = new ImagePipeline(options({ cacheMaxBytes: 400_000 }));
    for (const width of [160, 320, 480, 640, 800] as const)
      await derive(pipeline, '/photo.jpg', width);
    expect(await pipeline.store.size()).toBeLessThanOrEqual(400_000);
  });

  it.each([
    ['its folder cannot be made (read-only)', 'folder'],
    ['no file can be written in it (full)', 'files'],
  ])('still makes and serves pictures when %s', async (_label, blocked) => {
    const place = join(dir, `blocked-${String(Math.random()).slice(2)}`);
    let cacheDir = place;
    if (blocked === 'folder') {
      await writeFile(place, ''); // a file where the folder's parent should be
      cacheDir = join(place, 'images');
    } else {
      // Each of the 256 folders files go into is taken by a file: every write fails.
      await mkdir(cacheDir);
      const hex = (i: number) => i.toString(16).padStart(2, '0');
      await Promise.all(
        Array.from({ length: 256 }, (_, i) => writeFile(join(cacheDir, hex(i)), '')),
      );
    }
    const pipeline = new ImagePipeline(options({ cacheDir }));
    const bytes = await derive(pipeline, `/photo.jpg?nodisk=${blocked}`, 320, 'jpeg');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 320 });
    const again = await derive(pipeline, `/photo.jpg?nodisk=${blocked}`, 320, 'jpeg');
    expect(again.equals(bytes)).toBe(true);
  });

  it('clears files a crash left half-written, so they do not fill the disk beyond its limit', async () => {
    const settings = options();
    const folder = join(settings.cacheDir, 'ab');
    await mkdir(folder, { recursive: true });
    const left = join(folder, `${'ab'.padEnd(64, '0')}.4242.x1y2.part`);
    await writeFile(left, Buffer.alloc(1_000_000));
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(left, hourAgo, hourAgo);
    const pipeline = new ImagePipeline(settings);
    await derive(pipeline, '/photo.jpg?crashed', 160);
    expect((await readdir(folder)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('makes 50 different cold pictures asked at once, none refused, no more than its slots at once', async () => {
    const pipeline = new ImagePipeline(options({ transforms: 2 }));
    hits.clear();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => derive(pipeline, `/photo.jpg?n=${i}`, 160)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(pipeline.queue.peak).toBe(2);
    expect(pipeline.counts).toEqual({ fetches: 50, transforms: 50 });
  });

  it('makes the picture in view before thumbnails asked for earlier', async () => {
    const pipeline = new ImagePipeline(options({ transforms: 1 }));
    const done: string[] = [];
    const thumbs = Array.from({ length: 12 }, (_, i) =>
      derive(pipeline, `/photo.jpg?thumb=${i}`, 160).then(() => done.push(`thumb ${i}`)),
    );
    const page = pipeline
      .derive({
        source: `${origin}/photo.jpg?page`,
        width: 1200,
        format: 'webp',
        allowed: sameOrigin,
        priority: PRIORITY.view,
      })
      .then(() => done.push('page'));
    await Promise.all([...thumbs, page]);
    // At most the thumbnails already fetched or in the one slot when it came go first.
    expect(done.indexOf('page')).toBeLessThanOrEqual(3);
  });

  it('answers a request that waited long with another width already made, and still makes its own', async () => {
    const pipeline = new ImagePipeline(options({ patienceMs: 1 }));
    const small = await derive(pipeline, '/photo.jpg?wait', 320);
    const request = {
      source: `${origin}/photo.jpg?wait`,
      width: 1200,
      format: 'webp' as const,
      allowed: sameOrigin,
    };
    const answer = await pipeline.answer(request);
    expect(answer).toEqual({ bytes: small, exact: false });
    const made = await pipeline.derive(request);
    expect((await sharp(made).metadata()).width).toBe(1200);
    expect(await pipeline.answer(request)).toEqual({ bytes: made, exact: true });
  });

  it('when full, answers from another width already made, and refuses only what has none', async () => {
    // One slot and nothing waiting: while one picture is made, a second is full up.
    const pipeline = new ImagePipeline(options({ transforms: 1, waiting: 0, timeoutMs: 5_000 }));
    const small = await derive(pipeline, '/photo.jpg?full', 160);
    const making = derive(pipeline, '/slow.jpg?n=full', 160);
    const standIn = await pipeline.answer({
      source: `${origin}/photo.jpg?full`,
      width: 800,
      format: 'webp',
      allowed: sameOrigin,
    });
    expect(standIn).toEqual({ bytes: small, exact: false });
    const refused = await pipeline
      .answer({
        source: `${origin}/photo.jpg?none`,
        width: 800,
        format: 'webp',
        allowed: sameOrigin,
      })
      .catch((error: unknown) => error);
    expect((refused as ImageError).status).toBe(503);
    await making;
  });

  it('makes a picture that takes longer than the time limit, which only bounds the download', async () => {
    // On a busy machine one resize of a camera-size photo outlasted IMAGE_TIMEOUT_MS: every first
    // visitor got a 504 and each retry started the same doomed transform over.
    const pipeline = new ImagePipeline(options({ timeoutMs: 1_000 }));
    const made = await derive(pipeline, '/heavy.svg', 480, 'webp');
    expect(await sharp(made).metadata()).toMatchObject({ format: 'webp', width: 480 });
  }, 60_000);

  it('fetches a source that keeps sending for longer than the time limit, which bounds its silence', async () => {
    const pipeline = new ImagePipeline(options({ timeoutMs: 1_000 }));
    const made = await derive(pipeline, '/trickle.jpg', 480, 'webp');
    expect(await sharp(made).metadata()).toMatchObject({ format: 'webp', width: 480 });
  });

  it('gives up on a source that trickles on past ten times the time limit', async () => {
    // Never silent for 0.5 s, but 6 s in all: past the 5 s that bound a source whatever it sends.
    const pipeline = new ImagePipeline(options({ timeoutMs: 500 }));
    const error = await derive(pipeline, '/trickle-long.jpg').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageError);
    expect((error as ImageError).status).toBe(504);
  });

  it.each([
    ['a decompression bomb', '/bomb.png', 422, /pixels/],
    ['a source over the byte limit', '/huge.jpg', 422, /larger than/],
    ['a source that is no picture', '/text.jpg', 422, /not a picture/],
    ['a missing source', '/gone.jpg', 404, /does not exist/],
    ['a failing source', '/broken.jpg', 502, /answered 500/],
    ['a source that is rate limited (429) as busy', '/limited.jpg', 503, /try again/],
    ['a slow source', '/slow.jpg', 504, /too long/],
    ['a source silent mid-picture', '/stalls.jpg', 504, /too long/],
    ['a redirect to another host', '/away.jpg', 502, /not allowed/],
  ])('refuses %s with %s', async (_label, path, status, message) => {
    // A 1 s limit, so the slow source (silent for 2 s) runs out of it.
    const pipeline = new ImagePipeline(options({ timeoutMs: 1_000 }));
    const error = await derive(pipeline, path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageError);
    expect((error as ImageError).status).toBe(status);
    expect((error as ImageError).message).toMatch(message);
  });

  it('answers a source that cannot be reached as an outage: 503, try again', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const away = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/photo.jpg`;
    closed.close();
    const pipeline = new ImagePipeline(options());
    const source = { source: away, width: 800, format: 'webp', allowed: () => true } as const;
    const error = await pipeline.derive(source).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageError);
    expect((error as ImageError).status).toBe(503);
    expect((error as ImageError).message).toMatch(/try again/);
  });

  it('lets a bug of ours through as itself, never as the source’s 502 or the picture’s 422', async () => {
    // The route answers what is no ImageError with a 500 and logs its stack.
    const bug = new TypeError("Cannot read properties of undefined (reading 'hostname')");
    const fetching = await new ImagePipeline(options())
      .derive({
        source: `${origin}/away.jpg`,
        width: 800,
        format: 'webp',
        allowed: () => {
          throw bug;
        },
      })
      .catch((e: unknown) => e);
    expect(fetching).toBe(bug);
    // Pixels of our own (a source decoded for several pictures) that cannot be encoded.
    const limits = { maxPixels: 40_000_000 };
    const decoded = await decodeImage(photo, limits);
    const raster = decoded.raster && {
      ...decoded.raster,
      data: decoded.raster.data.subarray(0, 9),
    };
    const encoding = await transformImage(photo, 800, 'webp', limits, undefined, {
      ...decoded,
      raster,
    }).catch((e: unknown) => e);
    expect(encoding).toBeInstanceOf(Error);
    expect(encoding).not.toBeInstanceOf(ImageError);
  });

  it('stores nothing for a refused source', async () => {
    const settings = options();
    await derive(new ImagePipeline(settings), '/bomb.png').catch(() => undefined);
    const folders = await readdir(settings.cacheDir).catch(() => []);
    const files = (
      await Promise.all(folders.map((f) => readdir(join(settings.cacheDir, f))))
    ).flat();
    // The original is kept (it was fetched within limits); no derived image is.
    expect(files.length).toBeLessThanOrEqual(1);
  });
});
