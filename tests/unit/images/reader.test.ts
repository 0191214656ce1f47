import { describe, expect, it } from 'vitest';
import { parseImagePath } from '../../../src/lib/images/address.ts';
import { upstreamPicture, type ImageLinks } from '../../../src/lib/images/picture.ts';
import { readerImage } from '../../../src/lib/images/reader.ts';

const SECRET = 'unit-test-image-secret';
const API = 'https://api.news.example';
const links: ImageLinks = {
  secret: SECRET,
  tenant: { publishing: { baseUrl: `${API}/api/v1`, mediaHosts: [] } } as never,
  href: (path) => path,
};
const scan = {
  page_number: 3,
  image_url: `${API}/media/epaper/3.jpg`,
  width: 2200,
  height: 3000,
} as never;

/** `[format, width]` of every address in a `srcset`, read back through the route's parser. */
const entries = (srcset: string | undefined) =>
  (srcset ?? '').split(', ').map((entry) => {
    const parsed = parseImagePath(SECRET, entry.split(' ')[0]!);
    if (!parsed.ok) throw new Error(parsed.reason);
    return `${parsed.request.format} ${parsed.request.width}`;
  });

describe("the reader's page images", () => {
  it('offer a page in AVIF and WebP from a phone up to a zoomed page, with a JPEG fallback', () => {
    const image = readerImage(links, 'monday', scan, 'public');
    const widths = [320, 480, 640, 800, 1200, 1600, 2400];
    expect(entries(image.avif)).toEqual(widths.map((w) => `avif ${w}`));
    expect(entries(image.webp)).toEqual(widths.map((w) => `webp ${w}`));
    expect(parseImagePath(SECRET, image.src)).toMatchObject({
      ok: true,
      request: { format: 'jpeg', width: 1200 },
    });
    expect(image).toMatchObject({ width: 2200, height: 3000 });
  });

  it('keep thumbnails small: 160 px (320 on dense screens), WebP only', () => {
    const thumb = readerImage(links, 'monday', scan, 'public', 'thumb');
    expect(thumb.avif).toBeUndefined();
    expect(entries(thumb.webp)).toEqual(['webp 160', 'webp 320']);
  });

  it("address a subscriber's page by edition and page, never by the upstream's URL", () => {
    const image = readerImage(links, 'monday', scan, 'private');
    const all = [image.avif, image.webp, image.src].join(' ');
    expect(all).not.toContain('api.news.example');
    expect(all).not.toContain(Buffer.from(API).toString('base64url').slice(0, 12));
    expect(parseImagePath(SECRET, image.src)).toMatchObject({
      ok: true,
      request: { target: { kind: 'edition-page', edition: 'monday', page: 3 } },
    });
  });
});

describe('a page or cover whose size the API does not give (the contract names none)', () => {
  const unsized = { page_number: 1, image_url: `${API}/media/epaper/1.jpg` } as never;

  it('is taken as a printed page (3:4), so the box the browser keeps for it does not jump on load', () => {
    const image = readerImage(links, 'monday', unsized, 'public');
    expect(image.height / image.width).toBeCloseTo(4 / 3, 2);
    const cover = upstreamPicture(
      links,
      { url: `${API}/media/cover.jpg`, assumedRatio: 4 / 3 },
      {
        sizes: '14rem',
        maxWidth: 224,
      },
    );
    expect(cover && cover.height / cover.width).toBeCloseTo(4 / 3, 2);
  });

  it('is still offered up to a zoomed page on a large, dense screen, not cut at 1200 px', () => {
    const image = readerImage(links, 'monday', unsized, 'public');
    const widths = [320, 480, 640, 800, 1200, 1600, 2400];
    expect(entries(image.webp)).toEqual(widths.map((w) => `webp ${w}`));
    expect(image.webp.split(', ').map((entry) => entry.split(' ')[1])).toEqual(
      widths.map((w) => `${w}w`),
    );
  });
});
