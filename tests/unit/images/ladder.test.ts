import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, srcsetOf } from '../../../src/lib/images/ladder.ts';
import type { ImageLinks } from '../../../src/lib/images/picture.ts';
import { upstreamPicture } from '../../../src/lib/images/picture.ts';
import { readerPage } from '../../../src/lib/images/reader.ts';
import { CARD_LAYOUT } from '../../../src/lib/images/layouts.ts';

const href = (width: number) => `/_img/${width}.jpg`;
/** The width descriptors of a `srcset`, in order. */
const descriptors = (srcset: string | undefined) =>
  (srcset ?? '').split(', ').map((entry) => entry.split(' ')[1]);

describe('srcset width descriptors (Nu HTML checker: no two entries with the same width)', () => {
  it('drops ladder steps above a narrow source and keeps one entry at its width', () => {
    expect(srcsetOf([320, 640, 800, 1200, 1600, 2400], 1000, href)).toBe(
      '/_img/320.jpg 320w, /_img/640.jpg 640w, /_img/800.jpg 800w, /_img/1200.jpg 1000w',
    );
  });

  it('labels a step equal to the source with that width, once', () => {
    expect(descriptors(srcsetOf([640, 800, 1200, 1600], 800, href))).toEqual(['640w', '800w']);
  });

  it('lists every step of a source wider than the ladder', () => {
    expect(descriptors(srcsetOf(IMAGE_WIDTHS, 4000, href))).toEqual(
      IMAGE_WIDTHS.map((width) => `${width}w`),
    );
  });
});

const API = 'https://api.news.example';
const links: ImageLinks = {
  secret: 'unit-test-image-secret',
  tenant: { publishing: { baseUrl: `${API}/api/v1`, mediaHosts: [] } } as never,
  href: (path) => path,
};

describe('pages never repeat a width descriptor', () => {
  it('a picture of unknown width (taken as 1200 px) in a wide layout', () => {
    const picture = upstreamPicture(links, { url: `${API}/media/lead.jpg` }, CARD_LAYOUT.lead);
    for (const srcset of [picture?.srcset, ...(picture?.sources ?? []).map((s) => s.srcset)]) {
      const seen = descriptors(srcset);
      expect(new Set(seen).size, srcset).toBe(seen.length);
    }
  });

  it('a picture the upstream sizes 0×0 (unknown) gets the srcset of one of unknown width', () => {
    const url = `${API}/media/zero.jpg`;
    for (const layout of [CARD_LAYOUT.lead, CARD_LAYOUT.grid]) {
      const zero = upstreamPicture(links, { url, width: 0, height: 0 }, layout);
      const unknown = upstreamPicture(links, { url }, layout);
      // Not one 160 px picture stretched over a card on every screen.
      expect(descriptors(zero?.sources[0]?.srcset)).toEqual(
        descriptors(unknown?.sources[0]?.srcset),
      );
      expect(zero?.src).toBe(unknown?.src);
    }
  });

  it('an e-paper page scanned narrower than the zoomed widths', () => {
    const page = { page_number: 1, image_url: `${API}/media/epaper/1.jpg`, width: 1200 } as never;
    const image = readerPage(links, 'monday', page, 'public');
    expect(descriptors(image.webp)).toEqual(['320w', '480w', '640w', '800w', '1200w']);
    expect(descriptors(image.avif)).toEqual(['320w', '480w', '640w', '800w', '1200w']);
  });
});
