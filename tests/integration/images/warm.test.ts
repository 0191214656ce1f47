import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePath, type ImageRequest } from '../../../src/lib/images/address.ts';
import { imagePipeline } from '../../../src/lib/images/shared-pipeline.ts';
import { bareQueryRefusal, warmImage } from '../../../src/lib/images/warm.ts';
import { imageUpstream } from './fixture.ts';

// `npm start`'s warm path (scripts/start.mjs): a public image already made is read from the one
// pipeline's disk store, anything else is left to the route.
const SECRET = 'warm-path-test-signing-secret';
let upstream: Awaited<ReturnType<typeof imageUpstream>>;
let source = '';

beforeAll(async () => {
  const photo = await sharp({
    create: { width: 1600, height: 1000, channels: 3, background: '#a53a3a' },
  })
    .jpeg()
    .toBuffer();
  upstream = await imageUpstream((_req, res) => res.end(photo), { IMAGE_SIGNING_SECRET: SECRET });
  source = `${upstream.origin}/cover.jpg`;
});

afterAll(() => upstream.close());

describe("npm start's warm image path", () => {
  it('leaves every image to the route until the site has made its pipeline', async () => {
    const request: ImageRequest = {
      target: { kind: 'source', source },
      width: 480,
      format: 'avif',
    };
    expect(await warmImage(imagePath(SECRET, request))).toBeNull();
  });

  it('answers a made public image from disk, with the route’s headers and no sharp work', async () => {
    const request: ImageRequest = {
      target: { kind: 'source', source },
      width: 480,
      format: 'avif',
    };
    const made = await imagePipeline().derive({
      source,
      width: 480,
      format: 'avif',
      allowed: () => true,
    });
    const before = { ...imagePipeline().counts };
    const warm = await warmImage(`/daily-planet${imagePath(SECRET, request)}`);
    expect(warm?.bytes.equals(made)).toBe(true);
    expect(warm?.headers).toMatchObject({
      'Content-Type': 'image/avif',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Length': String(made.byteLength),
    });
    expect(await warmImage(imagePath(SECRET, request))).not.toBeNull();
    expect(imagePipeline().counts).toEqual(before);
  });

  it('leaves to the route an image not made yet, a forged address and a subscriber page', async () => {
    const cold: ImageRequest = { target: { kind: 'source', source }, width: 800, format: 'avif' };
    const made: ImageRequest = { ...cold, width: 480 };
    const forged = imagePath('another-secret-of-16+', made);
    const page: ImageRequest = {
      target: { kind: 'edition-page', edition: 'monday', page: 1 },
      width: 480,
      format: 'avif',
    };
    for (const path of [imagePath(SECRET, cold), forged, imagePath(SECRET, page), '/posts/x']) {
      expect(await warmImage(path), path).toBeNull();
    }
    expect(imagePipeline().counts.transforms).toBe(1);
  });
});

describe('an image address with a bare "?" (issue 33)', () => {
  it('is refused before the adapter drops the "?" (an edge would store a second copy)', () => {
    const path = imagePath(SECRET, {
      target: { kind: 'source', source },
      width: 480,
      format: 'avif',
    });
    for (const url of [`${path}?`, `/daily-planet${path}?`]) {
      const refusal = bareQueryRefusal(url);
      expect(refusal?.status).toBe(404);
      expect(refusal?.headers.get('cache-control')).toBe('no-store');
    }
    expect(bareQueryRefusal(path)).toBeNull();
    expect(bareQueryRefusal('/posts/a?')).toBeNull();
  });
});
