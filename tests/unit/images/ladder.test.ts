import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, srcsetOf } from '../../../src/lib/images/ladder.ts';
import type { ImageLinks } from '../../../src/lib/images/picture.ts';
import { upstreamPicture } from '../../../src/lib/images/picture.ts';
import { readerImage } from '../../../src/lib/images/reader.ts';
import {
  ARTICLE_COVER,
  CARD_LAYOUT,
  EDITION_COVER,
  EDITION_LIST,
  gridCard,
} from '../../../src/lib/images/layouts.ts';
import { gridColumns } from '../../../src/lib/reading/article.ts';

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

  it('a picture of unknown width offers a dense screen as much as the layout asks (the route never enlarges)', () => {
    const url = `${API}/media/lead.jpg`;
    const sized = upstreamPicture(links, { url, width: 4000, height: 2667 }, ARTICLE_COVER);
    const unsized = upstreamPicture(links, { url }, ARTICLE_COVER);
    // A 1440 px laptop at 2×: the 44rem column wants 1408 px. Before, the srcset stopped at 1200w.
    const widest = Math.max(
      ...descriptors(unsized?.sources[0]?.srcset).map((d) => parseInt(d ?? '')),
    );
    expect(widest).toBeGreaterThanOrEqual(2 * sizesAt(ARTICLE_COVER.sizes, 1440));
    expect(descriptors(unsized?.sources[0]?.srcset)).toEqual(
      descriptors(sized?.sources[0]?.srcset),
    );
  });

  it('an e-paper page scanned narrower than the zoomed widths', () => {
    const page = { page_number: 1, image_url: `${API}/media/epaper/1.jpg`, width: 1200 } as never;
    const image = readerImage(links, 'monday', page, 'public');
    expect(descriptors(image.webp)).toEqual(['320w', '480w', '640w', '800w', '1200w']);
    expect(descriptors(image.avif)).toEqual(['320w', '480w', '640w', '800w', '1200w']);
  });
});

/**
 * The CSS width (px) `sizes` gives on a screen `screen` px wide with a default font of `rem` px: the
 * first matching `(min-width: Nrem)` entry, its lengths (rem, vw) under calc, min, +, -, / read as
 * Chromium does (rem at the reader's font, in the media query and the length alike).
 */
function sizesAt(sizes: string, screen: number, rem = 16): number {
  for (const entry of sizes.split(/,\s*(?![^()]*\))/)) {
    const match = /^(?:\(min-width: ([\d.]+)rem\) )?(.+)$/.exec(entry.trim());
    if (!match?.[2] || (match[1] && screen < Number(match[1]) * rem)) continue;
    const tokens = match[2].match(/min|calc|[\d.]+(?:rem|vw)?|[-+/(),]/g) ?? [];
    let at = 0;
    const value = (): number => {
      const token = tokens[at++] ?? '';
      if (token === 'calc') return value();
      if (token === 'min') {
        at++; // (
        const a = sum();
        at++; // ,
        const b = sum();
        at++; // )
        return Math.min(a, b);
      }
      if (token === '(') {
        const inner = sum();
        at++; // )
        return inner;
      }
      const n = parseFloat(token);
      return token.endsWith('rem') ? n * rem : token.endsWith('vw') ? (n * screen) / 100 : n;
    };
    const product = (): number => {
      let result = value();
      while (tokens[at] === '/') {
        at++;
        result /= value();
      }
      return result;
    };
    const sum = (): number => {
      let result = product();
      while (tokens[at] === '-' || tokens[at] === '+') {
        const sign = tokens[at++] === '-' ? -1 : 1;
        result += sign * product();
      }
      return result;
    };
    return sum();
  }
  throw new Error(`no entry of "${sizes}" for ${screen} px`);
}

/** Screens (px) around every breakpoint of the layouts at 16 and at 24 px a rem. */
const SCREENS = [320, 390, 575, 576, 654, 800, 863, 864, 959, 960, 1280, 1439, 1440, 1920, 2560];
/** Default fonts: the usual 16 px and Chromium's largest setting. */
const FONTS = [16, 24];

describe('grid cards ask for pictures as wide as their columns show them', () => {
  // PostGrid's CSS: one column below 36rem, `md-N` from 36rem, `lg-N` from 60rem; gap 1.25rem,
  // the page at most 72rem with 1rem padding each side.
  const shown = (medium: number, wide: number, screen: number, rem: number) => {
    const n = screen >= 60 * rem ? wide : screen >= 36 * rem ? medium : 1;
    return (Math.min(screen, 72 * rem) - 2 * rem - (n - 1) * 1.25 * rem) / n;
  };

  describe.each(FONTS)('%i px a rem', (rem) => {
    it.each(Array.from({ length: 10 }, (_, i) => i + 1))('%i cards', (count) => {
      const { medium, wide } = gridColumns(count);
      const layout = gridCard(medium, wide);
      for (const screen of SCREENS) {
        const css = shown(medium, wide, screen, rem);
        // Not a smaller picture stretched (an archive's two a row on 1280 px were sent 480 px for 550).
        expect(sizesAt(layout.sizes, screen, rem), `${screen} px`).toBeCloseTo(css, 0);
        expect(layout.maxWidth).toBeGreaterThanOrEqual(css);
        expect(layout.minWidth ?? 0).toBeLessThanOrEqual(css);
      }
    });
  });
});

describe.each(FONTS)(
  'with a %i px default font, every layout lists a picture as wide as it shows',
  (rem) => {
    it.each(Object.entries({ ...CARD_LAYOUT, ARTICLE_COVER, EDITION_LIST, EDITION_COVER }))(
      '%s',
      (_name, layout) => {
        for (const screen of SCREENS) {
          const css = sizesAt(layout.sizes, screen, rem);
          // Before: a 1056 px cover (44rem at 24 px) on a 2× screen got 1600 px, the ladder's top for 704 px.
          expect(layout.maxWidth, `${screen} px`).toBeGreaterThanOrEqual(css);
          expect(layout.minWidth ?? 0, `${screen} px`).toBeLessThanOrEqual(css);
        }
      },
    );
  },
);
