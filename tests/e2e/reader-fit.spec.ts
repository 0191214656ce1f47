import { expect, test } from '@playwright/test';
import { tenantUrl } from './helpers.ts';
import { freeEdition, measure, type Rect } from './reader-boxes.ts';

// The reader's page or spread fits the smaller of the reader's width and height at common screen
// sizes, with and without JavaScript, and full screen gives it the whole screen (issue 21). Boxes
// are measured (reader-boxes.ts).
// The photos suite (playwright.photos.config.ts) runs this spec too, against its own mock.
const TENANT = 'daily-planet';
const SIZES = [
  [390, 844],
  [1280, 720],
  [1366, 768],
  [1440, 900],
  [1920, 1080],
] as const;

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
      const { slug } = await freeEdition(page);
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
  const { slug } = await freeEdition(page);
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
