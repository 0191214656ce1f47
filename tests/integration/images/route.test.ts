import { crc32 } from 'node:zlib';
import type { APIContext } from 'astro';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePath } from '../../../src/lib/images/address.ts';
import type { ImageFormat, ImageWidth } from '../../../src/lib/images/ladder.ts';
import { imageRoute } from '../../../src/lib/images/route.ts';
import { imageSecret } from '../../../src/lib/images/shared-pipeline.ts';
import { PATH_SPELLINGS } from '../../unit/images/spellings.ts';
import { imageUpstream } from './fixture.ts';

// The route's answers to sources that fail their limits: a clear status and reason, a blank
// picture for the layout's fallback, never a 500.
let upstream: Awaited<ReturnType<typeof imageUpstream>>;
let origin = '';

beforeAll(async () => {
  const pixel = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  // A PNG whose header claims 60000×60000 pixels: a decompression bomb of a few bytes.
  const bomb = Buffer.from(pixel);
  bomb.writeUInt32BE(60_000, 16);
  bomb.writeUInt32BE(60_000, 20);
  bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
  const photo = await sharp({
    create: { width: 3000, height: 2000, channels: 3, background: '#3a6ea5' },
  })
    .jpeg()
    .toBuffer();
  // A Sony A7R V's 9504×6336 (61 MP) as one colour: under a megabyte, quick to encode.
  const camera = await sharp({
    create: { width: 9504, height: 6336, channels: 3, background: '#3a6ea5' },
  })
    .jpeg({ optimiseCoding: false })
    .toBuffer();
  upstream = await imageUpstream(
    (req, res) => {
      if (req.url?.startsWith('/media/photo-')) return void res.end(photo);
      if (req.url === '/media/camera.jpg') return void res.end(camera);
      if (req.url === '/media/bomb.png') return void res.end(bomb);
      if (req.url === '/media/huge.jpg') return void res.end(Buffer.alloc(3_000_000, 1));
      res.writeHead(404);
      res.end();
    },
    { IMAGE_SOURCE_MAX_BYTES: '2000000' },
  );
  origin = upstream.origin;
});

afterAll(() => upstream.close());

async function get(source: string, width: ImageWidth = 480, format: ImageFormat = 'avif') {
  const path = imagePath(imageSecret(), { target: { kind: 'source', source }, width, format });
  const tenant = {
    id: 'daily-planet',
    publishing: { baseUrl: `${origin}/api/v1`, mediaHosts: [] },
  };
  const url = `http://daily-planet.localhost${path}`;
  const context = {
    locals: { tenantMatchOrNull: { tenant } },
    url: new URL(url),
    request: new Request(url),
  } as unknown as APIContext;
  return imageRoute(context);
}

describe('the image route refuses a source beyond its limits', () => {
  it.each([
    ['a decompression bomb', '/media/bomb.png', /pixels/],
    ['a source over the byte limit', '/media/huge.jpg', /larger than 2000000 bytes/],
  ])('%s: 422 with a blank picture, every time', async (_label, path, reason) => {
    for (let i = 0; i < 2; i++) {
      const response = await get(`${origin}${path}`);
      expect(response.status).toBe(422);
      expect(response.headers.get('x-image-error')).toMatch(reason);
      expect(response.headers.get('content-type')).toBe('image/gif');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('stands in with a transparent strip: a picture sized by its own ratio shrinks to a hairline', async () => {
    const response = await get(`${origin}/media/missing.jpg`);
    expect(response.status).toBe(404);
    const image = sharp(Buffer.from(await response.arrayBuffer()));
    const [meta, stats] = await Promise.all([image.metadata(), image.stats()]);
    expect(meta).toMatchObject({ format: 'gif', height: 1 });
    expect(meta.width).toBeGreaterThanOrEqual(1000);
    expect(stats.isOpaque).toBe(false);
  });
});

describe('the image route and photos from current cameras', () => {
  it('serves a 61 MP JPEG (Sony A7R V, 9504×6336) as a resized picture', async () => {
    const response = await get(`${origin}/media/camera.jpg`, 800, 'webp');
    expect(response.headers.get('x-image-error')).toBeNull();
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 800, height: 533 });
  });
});

describe('the image route under a burst of cold pictures', () => {
  it('makes 50 different cold pictures asked at once: every one a picture, none refused', async () => {
    // A page of thumbnails and covers nobody has asked for yet (IMAGE_TRANSFORMS: 2 by default).
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        get(`${origin}/media/photo-${i}.jpg`, i % 2 ? 160 : 320, 'webp'),
      ),
    );
    expect(answers.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(answers.every((r) => r.headers.get('cache-control')?.includes('immutable'))).toBe(true);
  });
});

describe('the image route answers one spelling per picture (issue 33)', () => {
  const path = () =>
    imagePath(imageSecret(), {
      target: { kind: 'source', source: `${origin}/media/huge.jpg` },
      width: 480,
      format: 'avif',
    });
  const ask = (url: string, via: 'host' | 'query' = 'host') => {
    const tenant = { id: 'daily-planet', publishing: { baseUrl: origin, mediaHosts: [] } };
    const context = {
      locals: { tenantMatchOrNull: { tenant, via } },
      url: new URL(url),
      request: new Request(url),
    } as unknown as APIContext;
    return imageRoute(context);
  };

  const spellings: [string, (path: string) => string][] = [
    ['a made-up query', (p) => `${p}?x=1`],
    ['a bare "?"', (p) => `${p}?`],
    ['"?tenant=" on a site found by its host', (p) => `${p}?tenant=daily-planet`],
    ...PATH_SPELLINGS.filter(([label, , status]) => status === 404 && /"[!=~]"/.test(label)).map(
      ([label, change]): [string, (path: string) => string] => [label, change],
    ),
  ];
  it.each(spellings)('%s: 404, never stored', async (_label, change) => {
    const response = await ask(`http://daily-planet.localhost${change(path())}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('takes the address it wrote (and a preview its own "?tenant=")', async () => {
    // The source is over the byte limit: 422 says the route read the address and went upstream.
    expect((await ask(`http://daily-planet.localhost${path()}`)).status).toBe(422);
    const preview = await ask(`http://localhost${path()}?tenant=daily-planet`, 'query');
    expect(preview.status).toBe(422);
    expect((await ask(`http://localhost${path()}?tenant=daily-planet&x`, 'query')).status).toBe(
      404,
    );
  });
});
