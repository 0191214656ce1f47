import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { tenantUrl } from './helpers.ts';
import { upstreamOf } from './images.ts';
import { freeEdition, measure } from './reader-boxes.ts';

// Issue 34: after every way of turning a page (Next, Previous, arrow keys, a thumbnail, a deep
// link) the whole spread, or the single page on a phone, is on screen below the sticky toolbar and
// uses at least 80 % of the room it has; full screen keeps the toolbar and thumbnails off the page
// until the pointer or a key asks for them; a page still loading says so and the position label
// keeps naming the pages on screen. Boxes are measured (reader-boxes.ts).
// The photos suite (playwright.photos.config.ts) runs this spec too: page scans that load slowly.
const TENANT = 'daily-planet';
const DESKTOPS = [
  [1280, 720],
  [1366, 768],
  [1440, 900],
  [1920, 1080],
] as const;

const position = (page: Page) => page.locator('[data-position]:visible');
/** The image route makes a photo suite's page scan on its first request: that can take seconds. */
const LOADED = { timeout: 30_000 };

/** Every drawn page is below the toolbar and inside the window, and together they fill 80 %. */
async function expectWholeSpread(page: Page, pages: number, label: string): Promise<void> {
  await expect(page.locator('[data-viewport]'), label).not.toHaveAttribute('aria-busy', 'true');
  const { pages: drawn } = await measure(page);
  expect(drawn, `${label}: pages drawn`).toHaveLength(pages);
  const bar = (await page.locator('.toolbar').boundingBox())!;
  const below = bar.y + bar.height;
  const { width, height } = page.viewportSize()!;
  for (const rect of drawn) {
    expect(rect.top, `${label}: page top below the toolbar`).toBeGreaterThanOrEqual(below - 1);
    expect(rect.bottom, `${label}: page bottom on screen`).toBeLessThanOrEqual(height + 1);
    expect(rect.left, `${label}: left edge on screen`).toBeGreaterThanOrEqual(-1);
    expect(rect.right, `${label}: right edge on screen`).toBeLessThanOrEqual(width + 1);
  }
  const drawnHeight =
    Math.max(...drawn.map((r) => r.bottom)) - Math.min(...drawn.map((r) => r.top));
  const drawnWidth = Math.max(...drawn.map((r) => r.right)) - Math.min(...drawn.map((r) => r.left));
  const share = Math.max(drawnHeight / (height - below), drawnWidth / width);
  expect(share, `${label}: share of the room below the toolbar`).toBeGreaterThanOrEqual(0.8);
}

/** A turn to page `n` ends when the label names its pages (it waits for them to load). */
async function turned(page: Page, label: string, count: number, spread: boolean, n: number) {
  await expect(page).toHaveURL(new RegExp(n > 1 ? `/page/${n}$` : `/epaper/[^/]+$`));
  const first = spread && n % 2 === 1 ? n - 1 : n;
  const pair = spread && first > 1 && first < count;
  await expect(position(page), label).toHaveText(
    pair ? `Pages ${first}–${first + 1} of ${count}` : `Page ${first} of ${count}`,
    LOADED,
  );
  await expectWholeSpread(page, pair ? 2 : 1, label);
}

for (const [width, height] of [[390, 844] as const, ...DESKTOPS]) {
  const phone = width < 500;
  test.describe(`${width}×${height}`, () => {
    test.use({ viewport: { width, height }, isMobile: phone, hasTouch: phone });

    test('every way of turning shows the whole page or spread below the toolbar', async ({
      page,
    }) => {
      test.slow(); // six turns, each waiting for its pictures
      const { slug, page_count: count } = await freeEdition(page);
      const spread = !phone;
      const step = spread ? 2 : 1;
      const at = (what: string) => `${width}×${height} ${what}`;

      await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/4`));
      await turned(page, at('deep link'), count, spread, 4);
      await page.screenshot({ path: test.info().outputPath(`deep-link-${width}.png`) });

      await page.getByRole('link', { name: /Next page/ }).click();
      await turned(page, at('Next'), count, spread, 4 + step);
      await page.getByRole('link', { name: /Previous page/ }).click();
      await turned(page, at('Previous'), count, spread, 4);

      await page.keyboard.press('ArrowRight');
      await turned(page, at('→'), count, spread, 4 + step);
      await page.keyboard.press('ArrowLeft');
      await turned(page, at('←'), count, spread, 4);

      // The strip is below the page: clicking a thumbnail scrolls down to it, the turn scrolls back.
      await page.locator('.thumbs a[data-go="9"]').click();
      await turned(page, at('thumbnail'), count, spread, 9);
      // The strip followed sideways: the current thumbnail is inside its visible width.
      const strip = (await page.locator('.thumbs ol').boundingBox())!;
      const thumb = (await page.locator('.thumbs a[aria-current="page"]').boundingBox())!;
      expect(thumb.x).toBeGreaterThanOrEqual(strip.x - 1);
      expect(thumb.x + thumb.width).toBeLessThanOrEqual(strip.x + strip.width + 1);
      await page.screenshot({ path: test.info().outputPath(`thumbnail-${width}.png`) });
    });

    test('a page still loading says so; the label names the pages on screen', async ({ page }) => {
      const { slug, page_count: count } = await freeEdition(page);
      await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
      const before = phone ? `Page 2 of ${count}` : `Pages 2–3 of ${count}`;
      await expect(position(page)).toHaveText(before);
      await expect(page.locator('[data-loading-cue]')).toBeHidden();

      // Pages 6 and 7 are held on their way until the test lets them through.
      const held: Route[] = [];
      await page.route('**/_img/u/**', async (route) => {
        if (/\/pages\/[67]\.\w+$/.test(upstreamOf(route.request().url()) ?? '')) held.push(route);
        else await route.continue();
      });
      await page.locator('.thumbs a[data-go="6"]').click();
      await expect.poll(() => held.length).toBeGreaterThan(0);

      const loading = phone ? 'Loading page 6…' : 'Loading pages 6–7…';
      const cue = page.locator('[data-loading-cue]');
      await expect(cue).toBeVisible();
      await expect(cue).toHaveText(loading);
      await expect(cue).toBeInViewport();
      await expect(page.getByRole('region', { name: 'Current page' })).toHaveAttribute(
        'aria-busy',
        'true',
      );
      await expect(position(page)).toHaveText(before);
      // A screen reader hears the new position at once: the new pages' alt texts are already there.
      const after = phone ? `Page 6 of ${count}` : `Pages 6–7 of ${count}`;
      await expect(page.locator('[data-live]')).toHaveText(after);
      await page.screenshot({ path: test.info().outputPath(`loading-${width}.png`) });

      await Promise.all(held.map((route) => route.continue()));
      await page.unroute('**/_img/u/**');
      await expect(position(page)).toHaveText(after, LOADED);
      await expect(cue).toBeHidden();
      await expect(page.locator('[data-viewport]')).not.toHaveAttribute('aria-busy', 'true');
    });
  });
}

test.describe('1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('a turn to the right page of a spread draws no old page while the new ones load', async ({
    page,
  }) => {
    const { slug, page_count: count } = await freeEdition(page);
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
    await expect(position(page)).toHaveText(`Pages 2–3 of ${count}`);
    const held: Route[] = [];
    await page.route('**/_img/u/**', async (route) => {
      if (/\/pages\/[67]\.\w+$/.test(upstreamOf(route.request().url()) ?? '')) held.push(route);
      else await route.continue();
    });
    await page.locator('.thumbs a[data-go="7"]').click();
    await expect(page.locator('[data-loading-cue]')).toHaveText('Loading pages 6–7…');
    /** The page images drawn (not transparent) that still show a picture other than their own. */
    const stale = () =>
      page
        .locator('[data-viewport] img')
        .evaluateAll(
          (imgs: HTMLImageElement[]) =>
            imgs.filter(
              (img) =>
                img.getClientRects().length > 0 &&
                !img.complete &&
                getComputedStyle(img).opacity !== '0',
            ).length,
        );
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await stale()).toBe(0);

    await Promise.all(held.map((route) => route.continue()));
    await page.unroute('**/_img/u/**');
    await expect(position(page)).toHaveText(`Pages 6–7 of ${count}`, LOADED);
    await expectWholeSpread(page, 2, 'pages 6–7');
    const opacities = await page
      .locator('[data-viewport] img:visible')
      .evaluateAll((imgs) => imgs.map((img) => getComputedStyle(img).opacity));
    expect(opacities).toEqual(['1', '1']);
  });

  test('the next spread loads ahead: Next shows it at once, without a loading notice', async ({
    page,
  }) => {
    const { slug, page_count: count } = await freeEdition(page);
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
    await expect(position(page)).toHaveText(`Pages 2–3 of ${count}`, LOADED);
    await page.waitForLoadState('networkidle');
    // The key and what the reader shows next, in one task: nothing arrives in between.
    const after = await page.evaluate(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      const cue = document.querySelector<HTMLElement>('[data-loading-cue]');
      return { busy: !cue?.hidden, label: document.title };
    });
    expect(after).toEqual({ busy: false, label: expect.stringContaining('page 4') });
    await expect(position(page)).toHaveText(`Pages 4–5 of ${count}`);
  });
});

test.describe('390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('zooming while a turned-to page loads: the notice stays until the new page is drawn', async ({
    page,
  }) => {
    const { slug, page_count: count } = await freeEdition(page);
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
    await expect(position(page)).toHaveText(`Page 2 of ${count}`);
    const held: Route[] = [];
    await page.route('**/_img/u/**', async (route) => {
      if (/\/pages\/[67]\.\w+$/.test(upstreamOf(route.request().url()) ?? '')) held.push(route);
      else await route.continue();
    });
    await page.locator('.thumbs a[data-go="6"]').click();
    const cue = page.locator('[data-loading-cue]');
    await expect(cue).toHaveText('Loading page 6…');
    /** The addresses asked for page 6: one per width. */
    const pageSix = () =>
      new Set(
        held
          .map((route) => route.request().url())
          .filter((url) => /\/pages\/6\.\w+$/.test(upstreamOf(url) ?? '')),
      );
    await expect.poll(() => pageSix().size).toBe(1);
    // A larger zoom asks for a wider picture of page 6 (held too), in place of the one on its way.
    await page.getByRole('link', { name: 'Zoom in' }).click();
    await expect.poll(() => pageSix().size).toBe(2);
    await expect(page.locator('[data-zoom-label]')).toHaveText('150%');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
    await expect(cue).toBeVisible();
    await expect(position(page)).toHaveText(`Page 2 of ${count}`);

    // The narrower picture's request may have been dropped by the browser: nothing to let through.
    await Promise.all(held.map((route) => route.continue().catch(() => undefined)));
    await page.unroute('**/_img/u/**');
    await expect(position(page)).toHaveText(`Page 6 of ${count}`, LOADED);
    await expect(cue).toBeHidden();
  });
});

/** How many pixels of the drawn pages the toolbar and the thumbnail strip cover while visible. */
async function covered(page: Page): Promise<number> {
  const { pages } = await measure(page);
  let area = 0;
  for (const selector of ['.toolbar', '.thumbs']) {
    const bar = page.locator(selector);
    const box = await bar.boundingBox();
    if (!box || (await opacity(bar)) === 0) continue;
    for (const p of pages) {
      const w = Math.min(p.right, box.x + box.width) - Math.max(p.left, box.x);
      const h = Math.min(p.bottom, box.y + box.height) - Math.max(p.top, box.y);
      if (w > 1 && h > 1) area += w * h;
    }
  }
  return area;
}

const opacity = (locator: Locator) =>
  locator.evaluate((element) => Number(getComputedStyle(element).opacity));

test('full screen: the toolbar and thumbnails stay off the page until the pointer or a key asks', async ({
  page,
}) => {
  test.slow(); // every desktop size, each in and out of full screen (about 22 s alone, past 30 beside other suites)
  await page.clock.install();
  const { slug } = await freeEdition(page);
  const toolbar = page.locator('.toolbar');
  const thumbs = page.locator('.thumbs');
  for (const [width, height] of DESKTOPS) {
    const at = `${width}×${height}`;
    await page.setViewportSize({ width, height });
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
    await page.getByRole('button', { name: 'Full screen' }).click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    await expect.poll(() => covered(page), at).toBe(0);
    await page.screenshot({ path: test.info().outputPath(`fullscreen-${width}.png`) });

    // The pointer moving brings both back for a while.
    await page.mouse.move(width / 2, height / 2);
    await page.mouse.move(width / 2 + 20, height / 2 + 10);
    await expect.poll(() => opacity(toolbar), `${at} pointer`).toBe(1);
    await expect.poll(() => opacity(thumbs), `${at} pointer`).toBe(1);
    await page.screenshot({ path: test.info().outputPath(`fullscreen-pointer-${width}.png`) });
    await page.clock.runFor(3000);
    await expect.poll(() => covered(page), `${at} idle`).toBe(0);

    // Turning by key keeps the page clear; Tab brings the control it focuses back.
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/\/page\/4$/);
    await expect.poll(() => covered(page), `${at} →`).toBe(0);
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('button', { name: 'Exit full screen' })).toBeFocused();
    await page.clock.runFor(3000);
    await expect.poll(() => opacity(toolbar), `${at} focus`).toBe(1);
    await expect.poll(() => opacity(thumbs), `${at} focus elsewhere`).toBe(0);

    await page.evaluate(() => document.exitFullscreen());
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a page link lands with the whole page or spread below the toolbar', async ({ page }) => {
    test.slow(); // five sizes, three turns each
    const { slug } = await freeEdition(page);
    for (const [width, height] of [[390, 844] as const, ...DESKTOPS]) {
      await page.setViewportSize({ width, height });
      const pair = width >= 500 ? 2 : 1;
      await page.goto(tenantUrl(TENANT, `/epaper/${slug}/page/4`));
      for (const [what, link] of [
        ['Next', page.getByRole('link', { name: /Next page/ })],
        ['Previous', page.getByRole('link', { name: /Previous page/ })],
        ['thumbnail', page.locator('.thumbs a[href*="/page/9#"]')],
      ] as const) {
        await link.first().click();
        await expect(page).toHaveURL(/#reader-pages$/);
        // Chromium scrolls to the fragment once the new page has settled, not as its address changes.
        await expect(() =>
          expectWholeSpread(page, pair, `${width}×${height} ${what} without JavaScript`),
        ).toPass(LOADED);
      }
    }
  });
});
