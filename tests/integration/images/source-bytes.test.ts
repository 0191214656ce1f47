import type { APIContext } from 'astro';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePath } from '../../../src/lib/images/address.ts';
import { imageRoute } from '../../../src/lib/images/route.ts';
import { imageSecret } from '../../../src/lib/images/shared-pipeline.ts';
import { settings } from '../../../src/lib/settings/settings.ts';
import { imageUpstream } from './fixture.ts';

// The default `IMAGE_SOURCE_MAX_BYTES` against camera files: an extra-fine JPEG from a 61 MP
// camera runs to about 40 MB, more than the old 25 MiB let through.
let upstream: Awaited<ReturnType<typeof imageUpstream>>;
let origin = '';
let limit = 0;
let camera: Buffer = Buffer.alloc(0);
let over: Buffer = Buffer.alloc(0);

/** `jpeg` grown to `size` bytes by APP15 segments after its start, as a camera's previews and notes grow one. */
function padded(jpeg: Buffer, size: number): Buffer {
  const room = size - jpeg.length;
  const segments: Buffer[] = [];
  for (let left = room; left > 0;) {
    // A segment is its marker (2 bytes) and a length (2 bytes, counting itself) of at most 65535.
    const length = Math.min(65_535, left - 2);
    const segment = Buffer.alloc(length + 2, 0x20);
    segment.writeUInt16BE(0xffef, 0);
    segment.writeUInt16BE(length, 2);
    segments.push(segment);
    left -= segment.length;
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

beforeAll(async () => {
  upstream = await imageUpstream((req, res) => {
    if (req.url === '/media/extra-fine.jpg') return void res.end(camera);
    if (req.url === '/media/over.jpg') return void res.end(over);
    res.writeHead(404);
    res.end();
  });
  origin = upstream.origin;
  limit = settings().IMAGE_SOURCE_MAX_BYTES;
  const photo = await sharp({
    create: { width: 6000, height: 4000, channels: 3, background: '#3a6ea5' },
  })
    .jpeg({ quality: 100 })
    .toBuffer();
  camera = padded(photo, 30_000_000);
  over = padded(photo, limit + 1);
});

afterAll(() => upstream.close());

async function get(source: string) {
  const path = imagePath(imageSecret(), {
    target: { kind: 'source', source },
    width: 800,
    format: 'webp',
  });
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

describe('the default source byte limit', () => {
  it('serves a 30 MB camera JPEG as a resized picture', async () => {
    expect(camera.length).toBe(30_000_000);
    const response = await get(`${origin}/media/extra-fine.jpg`);
    expect(response.headers.get('x-image-error')).toBeNull();
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 800, height: 533 });
  });

  it('refuses a source one byte over it, as before', async () => {
    const response = await get(`${origin}/media/over.jpg`);
    expect(response.status).toBe(422);
    expect(response.headers.get('x-image-error')).toMatch(`larger than ${limit} bytes`);
  });
});
