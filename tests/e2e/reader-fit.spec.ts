import { expect, test, type Page } from '@playwright/test';
import { tenantUrl } from './helpers.ts';

// The reader's page or spread fits the smaller of the reader's width and height at common screen
// sizes, with and without JavaScript, and full screen gives it the whole screen (issue 21). Boxes
// are measured: a fitted page is drawn inside its box (object-fit: contain), so the drawn rectangle
// is worked out from the box and the page's shape.
// The photos suite (playwright.photos.config.ts) runs this spec too, against its own mock.
const API = process.env.E2E_MOCK_API ?? 'http://127.0.0.1:4010/api/v1';
const TENANT = 'daily-planet';
const SIZES = [
  [390, 844],
  [1280, 720],
  [1366, 768],
  [1440, 900],
  [1920, 1080],
] as const;

type Rect = { left: number; right: number; top: number; bottom: number };

/** The drawn rectangles of the visible page images, and the reader viewport's inner box. */
async function measure(page: Page): Promise<{ pages: Rect[]; box: Rect; height: number }> {
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

async function freeEdition(page: Page): Promise<string> {
  const response = await page.request.get(`${API}/epaper?per_page=50`, {
    headers: { 'X-Tenant': TENANT },
  });
  const editions = ((await response.json()) as { data: { slug: string; is_free: boolean }[] }).data;
  return editions.find((e) => e.is_free)!.slug;
}

function expectFits({ pages, box, height }: Awaited<ReturnType<typeof measure>>, label: string) {
  expect(pages.length, label).toBeGreaterThan(0);
  for (const drawn of pages) {
    expect(drawn.left, `${label}: left edge inside the reader`).toBeGreaterThanOrEqual(
      box.left - 1,
    );
    expect(drawn.right, `${label}: right edge inside the reader`).toBeLessThanOrEqual(
      box.right + 1,
    );
    expect(drawn.bottom - drawn.top, `${label}: as tall as the screen at most`).toBeLessThanOrEqual(
      height + 1,
    );
  }
  if (pages.length === 2) {
    const [a, b] = [...pages].sort((x, y) => x.left - y.left) as [Rect, Rect];
    expect(Math.abs(b.left - a.right), `${label}: the pages meet at the fold`).toBeLessThan(2);
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a page or spread fits the reader at five screen sizes', async ({ page }) => {
      const slug = await freeEdition(page);
      for (const [width, height] of SIZES) {
        await page.setViewportSize({ width, height });
        await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
        await page.locator('[data-viewport]').scrollIntoViewIfNeeded();
        expectFits(await measure(page), `${width}×${height}`);
      }
    });
  });
}

test('full screen gives the page the whole screen, the controls float over it', async ({
  page,
}) => {
  const slug = await freeEdition(page);
  for (const [width, height] of SIZES.slice(1)) {
    await page.setViewportSize({ width, height });
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
    await page.locator('[data-fullscreen]').click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    const measured = await measure(page);
    expectFits(measured, `full screen ${width}×${height}`);
    const drawnHeight = Math.max(...measured.pages.map((p) => p.bottom - p.top));
    const drawnWidth =
      Math.max(...measured.pages.map((p) => p.right)) -
      Math.min(...measured.pages.map((p) => p.left));
    // The spread takes the whole height, or the whole width where that is the smaller.
    expect(
      Math.max(drawnHeight / measured.height, drawnWidth / width),
      `full screen ${width}×${height}`,
    ).toBeGreaterThan(0.95);
    await page.evaluate(() => document.exitFullscreen());
  }
});
