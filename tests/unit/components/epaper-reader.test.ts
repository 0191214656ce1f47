import { describe, expect, it } from 'vitest';
import Reader from '../../../src/components/epaper/Reader.astro';
import { positionLabel, readablePages } from '../../../src/lib/epaper/reader.ts';
import { sayer } from '../../../src/lib/i18n/say.ts';
import { editionSchema } from '../../../src/lib/publishing/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { render } from './render.ts';

// Page 3's scan has no usable address: the reader shows the four pages it has, numbered 1–4.
const edition = editionSchema.parse({
  title: 'Weekend',
  slug: 'weekend',
  page_count: 5,
  pages: [1, 2, 3, 4, 5].map((n) => ({
    page_number: n,
    image_url: n === 3 ? 'not-a-url' : `https://api.example.com/storage/p${n}.jpg`,
  })),
});
const props = { edition, pages: readablePages(edition), zoom: 1, path: '/epaper/weekend' };

describe('the reader with a page left out', () => {
  it('numbers, links and marks the thumbnails by their place in the reader, as the page and its label', async () => {
    const view = await render(Reader, { props: { ...props, page: 3, access: 'public' } });
    const thumbs = [...view.body.querySelectorAll<HTMLAnchorElement>('.thumbs a')];
    expect(thumbs.map((a) => a.dataset.go)).toEqual(['1', '2', '3', '4']);
    expect(thumbs.map((a) => a.getAttribute('href'))).toEqual([
      '/epaper/weekend#reader-pages',
      '/epaper/weekend/page/2#reader-pages',
      '/epaper/weekend/page/3#reader-pages',
      '/epaper/weekend/page/4#reader-pages',
    ]);
    const current = view.body.querySelector('.thumbs a[aria-current="page"]');
    expect(current?.textContent?.replace(/\s+/g, ' ').trim()).toBe('Page 3');
    // The page on screen is the one that thumbnail shows (page 4's scan, the third in the reader).
    const image = view.body.querySelector('[data-page-image]');
    expect(image?.getAttribute('src')).toBe(current?.getAttribute('data-src'));
    expect(image?.getAttribute('alt')).toBe('Page 3 of Weekend');
    // Its spread partner (2–3) sits on the left, as page 2.
    const partner = view.body.querySelector('[data-partner-image]');
    expect(partner?.getAttribute('data-side')).toBe('left');
    expect(partner?.getAttribute('alt')).toBe('Page 2 of Weekend');
    // In page order, as a screen reader reads them: page 2 before page 3.
    const alts = [...view.body.querySelectorAll('.spread img')].map((img) =>
      img.getAttribute('alt'),
    );
    expect(alts).toEqual(['Page 2 of Weekend', 'Page 3 of Weekend']);
  });

  it("the go-to form keeps preview's ?tenant= and the zoom as hidden fields", async () => {
    const view = await render(Reader, {
      props: { ...props, page: 2, zoom: 2, access: 'public' },
      locals: { href: (path: string) => `${path}?tenant=herald` } as App.Locals,
    });
    const form = view.body.querySelector('form.goto');
    expect(form?.getAttribute('action')).toBe('/epaper/weekend');
    const fields = [...(form?.querySelectorAll('input') ?? [])];
    expect(fields.map((input) => [input.name, input.value])).toEqual([
      ['tenant', 'herald'],
      ['zoom', '2'],
      ['page', '2'],
    ]);
  });
});

// A long edition: the strip holds only the 40 pages around the current one.
const long = editionSchema.parse({
  title: 'Almanac',
  slug: 'almanac',
  page_count: 200,
  pages: Array.from({ length: 200 }, (_, i) => ({
    page_number: i + 1,
    image_url: `https://api.example.com/storage/a${i + 1}.jpg`,
  })),
});
const longProps = { edition: long, pages: readablePages(long), zoom: 1, path: '/epaper/almanac' };

describe('the thumbnail strip names the pages it shows', () => {
  it.each([
    ['en-GB', 40, 'Pages 21–60 of 200'],
    ['de-DE', 40, 'Seiten 21–60 von 200'],
    ['fr-FR', 40, 'Pages 21–60 sur 200'],
    ['en-GB', 200, 'Pages 161–200 of 200'],
  ])('%s, page %i of a long edition: "%s"', async (locale, page, name) => {
    const view = await render(Reader, {
      props: { ...longProps, page, access: 'public' },
      locals: { tenant: buildTenant({ locale }) } as App.Locals,
    });
    const strip = view.getByRole('navigation', { name });
    expect(strip.querySelectorAll('a[data-go]')).toHaveLength(40);
  });

  it('"All pages" when the edition is short enough to show them all', async () => {
    const view = await render(Reader, { props: { ...props, page: 1, access: 'public' } });
    expect(view.getByRole('navigation', { name: 'All pages' }).querySelectorAll('a')).toHaveLength(
      4,
    );
  });
});

describe('a page image that fails to load', () => {
  it.each([
    ['en-GB', 'Try again', 'Reload the reader', 'Page 2 could not be loaded.'],
    ['de-DE', 'Erneut versuchen', 'Leseansicht neu laden', 'Seite 2 konnte nicht geladen werden.'],
    ['fr-FR', 'Réessayer', 'Recharger la liseuse', 'La page 2 n’a pas pu être chargée.'],
  ])(
    '%s: a hidden notice with "%s" and a link to the page itself',
    async (locale, retry, reload, text) => {
      const view = await render(Reader, {
        props: { ...props, page: 2, zoom: 2, access: 'public' },
        locals: { tenant: buildTenant({ locale }) } as App.Locals,
      });
      const notice = view.body.querySelector<HTMLElement>('[data-failed]');
      expect(notice?.hidden).toBe(true);
      // Inside the stage, over the page box, as the loading notice.
      expect(notice?.parentElement?.classList.contains('stage')).toBe(true);
      expect(view.getByRole('button', { name: retry, hidden: true }).dataset['retry']).toBe('');
      // Without a fragment: the same address with one would only scroll, never load the page again.
      expect(view.getByRole('link', { name: reload, hidden: true }).getAttribute('href')).toBe(
        '/epaper/weekend/page/2/zoom/2',
      );
      expect(positionLabel([2], 4, islandSay(view.body), 'failed')).toBe(text);
    },
  );

  it("says the tenant's own wording of the notice (a messages override)", async () => {
    const messages = { 'reader.failedSpread': 'Pages {first} and {second} are missing.' };
    const view = await render(Reader, {
      props: { ...props, page: 2, access: 'public' },
      locals: { tenant: buildTenant({ messages }) } as App.Locals,
    });
    const say = islandSay(view.body);
    expect(positionLabel([2, 3], 4, say, 'failed')).toBe('Pages 2 and 3 are missing.');
  });
});

/** What the island says: the messages the page hands it (`data-text`), filled in as it fills them. */
function islandSay(body: HTMLElement) {
  const root = body.querySelector<HTMLElement>('[data-reader]');
  const texts = JSON.parse(root?.dataset['text'] ?? '{}') as Record<string, string>;
  return sayer(texts, root?.dataset['locale'] ?? '');
}
