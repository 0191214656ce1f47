// Measuring the e-paper reader in e2e tests (reader-fit.spec.ts, reader-turns.spec.ts): a fitted
// page is drawn inside its box (object-fit: contain), so the drawn rectangle is worked out from
// the box and the page's shape.
import type { Page } from '@playwright/test';

export type Rect = { left: number; right: number; top: number; bottom: number };

/** The mock's publishing API: the photos suite (playwright.photos.config.ts) runs its own. */
export const READER_API = process.env.E2E_MOCK_API ?? 'http://127.0.0.1:4010/api/v1';

/** The drawn rectangles of the visible page images, and the reader viewport's inner box. */
export async function measure(page: Page): Promise<{ pages: Rect[]; box: Rect; height: number }> {
  return page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>('[data-viewport]')!;
    const style = getComputedStyle(viewport);
    const outer = viewport.getBoundingClientRect();
    const box = {
      left: outer.left + parseFloat(style.paddingLeft),
      right: outer.right - parseFloat(style.paddingRight),
      top: outer.top + parseFloat(style.paddingTop),
      bottom: outer.bottom - parseFloat(style.paddingBottom),
    };
    const pages = [...viewport.querySelectorAll<HTMLImageElement>('img')]
      .filter((img) => img.getBoundingClientRect().width > 0)
      .map((img) => {
        const r = img.getBoundingClientRect();
        const ratio = Number(img.getAttribute('width')) / Number(img.getAttribute('height'));
        const css = getComputedStyle(img);
        if (css.objectFit !== 'contain') {
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }
        const width = Math.min(r.width, r.height * ratio);
        const height = width / ratio;
        const [x = '50%'] = css.objectPosition.split(' ');
        const share = x.endsWith('%') ? parseFloat(x) / 100 : 0;
        const left = r.left + (r.width - width) * share;
        const top = r.top + (r.height - height) / 2;
        return { left, right: left + width, top, bottom: top + height };
      });
    return { pages, box, height: innerHeight };
  });
}

/** The slug and page count of a free edition of the mock's daily-planet. */
export async function freeEdition(page: Page): Promise<{ slug: string; page_count: number }> {
  const response = await page.request.get(`${READER_API}/epaper?per_page=50`, {
    headers: { 'X-Tenant': 'daily-planet' },
  });
  const editions = (
    (await response.json()) as { data: { slug: string; is_free: boolean; page_count: number }[] }
  ).data;
  return editions.find((e) => e.is_free)!;
}
