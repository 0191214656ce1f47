import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { LAYOUT_MEDIA } from '../../src/lib/epaper/reader.ts';
import { checkA11y, tenantUrl } from './helpers.ts';

// The e-paper reader by screen shape: spreads and "fit to page" on wide screens, one page fitted to
// the width on phones, touch gestures, full screen; and no sideways scrolling with long editions.
const API = 'http://127.0.0.1:4010/api/v1';
const TENANT = 'daily-planet';

interface ApiEdition {
  title: string;
  slug: string;
  is_free: boolean;
  page_count: number;
}

/** A free edition of 16 pages (the mock's seed has one; its 8–16 page range is in mock/README.md). */
async function longEdition(request: APIRequestContext): Promise<ApiEdition> {
  const response = await request.get(`${API}/epaper?per_page=50`, {
    headers: { 'X-Tenant': TENANT },
  });
  const editions = ((await response.json()) as { data: ApiEdition[] }).data;
  const edition = editions.find((e) => e.is_free && e.page_count >= 16);
  expect(edition, 'a free edition of 16 pages in the mock seed').toBeDefined();
  return edition!;
}

const shown = (page: Page) => page.locator('.viewport img:visible');
/** How far the page scrolls sideways; the message names what sticks out (outside scrolling boxes). */
async function expectNoSideways(page: Page): Promise<void> {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el))
      .slice(-5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { overflow: document.documentElement.scrollWidth - width, culprits };
  });
  expect(overflow, culprits.join(', ')).toBe(0);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

// What the media queries decide, in the browser that applies them (the island asks the same query).
test('spreads and fit by screen shape', async ({ page }) => {
  const shapes = [
    ['desktop 1280×720', 1280, 720, true, 'page'],
    ['desktop 1920×1080', 1920, 1080, true, 'page'],
    ['square-ish monitor 1280×1024', 1280, 1024, true, 'width'],
    ['tablet landscape 1180×820', 1180, 820, true, 'width'],
    ['tablet portrait 820×1180', 820, 1180, false, 'width'],
    ['small laptop window 800×600', 800, 600, false, 'page'],
    ['phone 390×844', 390, 844, false, 'width'],
    ['phone 320×568', 320, 568, false, 'width'],
    ['phone landscape 844×390', 844, 390, false, 'width'],
    ['wide but short 1280×400', 1280, 400, true, 'width'],
  ] as const;
  for (const [name, width, height, spread, fit] of shapes) {
    await page.setViewportSize({ width, height });
    const layout = await page.evaluate((media) => {
      const spread = matchMedia(media.spread).matches;
      const fitted = matchMedia(spread ? media.spreadPageFit : media.pageFit).matches;
      return { spread, fit: fitted ? 'page' : 'width' };
    }, LAYOUT_MEDIA);
    expect(layout, name).toEqual({ spread, fit });
  }
});

test.describe('wide screen, 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('cover alone, then two-page spreads fitted whole; zoom keeps the toolbar in reach', async ({
    page,
    request,
  }) => {
    const edition = await longEdition(request);
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}`));
    await expect(shown(page)).toHaveCount(1);
    await expectNoSideways(page);

    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/\/page\/2$/);
    await expect(shown(page)).toHaveCount(2);
    await expect(page.locator('[data-position]:visible')).toHaveText(
      `Pages 2–3 of ${edition.page_count}`,
    );
    await expect(shown(page).nth(1)).toHaveAttribute('alt', `Page 3 of ${edition.title}`);
    await page.locator('.viewport').scrollIntoViewIfNeeded();
    const [left, right] = [
      await shown(page).nth(0).boundingBox(),
      await shown(page).nth(1).boundingBox(),
    ];
    // Side by side, page 2 on the left, and the whole spread fits the window's height.
    expect(left!.x + left!.width).toBeLessThanOrEqual(right!.x + 1);
    expect(left!.height).toBeLessThanOrEqual(720);
    expect(Math.abs(left!.y - right!.y)).toBeLessThan(1);
    await screenshot(page, 'reader-1280-spread');
    await checkA11y(page);

    // Next moves by spread: 2–3 → 4–5.
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/page\/4$/);
    await expect(shown(page).nth(1)).toHaveAttribute('alt', `Page 5 of ${edition.title}`);

    // Zoomed, the spread outgrows the window; the sticky toolbar stays on screen while it scrolls.
    await page.getByRole('link', { name: 'Zoom in' }).click();
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
    await expect
      .poll(async () => (await shown(page).first().boundingBox())!.height)
      .toBeGreaterThan(left!.height * 1.4);
    await page.mouse.wheel(0, 2000);
    await expect(page.getByRole('link', { name: 'Zoom out' })).toBeInViewport();
    await screenshot(page, 'reader-1280-zoomed');

    // Full screen holds the reader.
    await page.getByRole('button', { name: 'Full screen' }).click();
    await expect
      .poll(() => page.evaluate(() => document.fullscreenElement?.hasAttribute('data-reader')))
      .toBe(true);
    await page.getByRole('button', { name: 'Exit full screen' }).click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
  });

  test("a screen reader meets a spread's pages in page order, also from its right-hand page", async ({
    page,
    request,
  }) => {
    const edition = await longEdition(request);
    const order = () =>
      shown(page).evaluateAll((images) => images.map((image) => image.getAttribute('alt')));
    const alts = (...pages: number[]) => pages.map((n) => `Page ${n} of ${edition.title}`);
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/3`));
    expect(await order()).toEqual(alts(2, 3));
    await page.locator('.thumbs a[data-go="5"]').click();
    await expect(page).toHaveURL(/\/page\/5$/);
    await expect.poll(order).toEqual(alts(4, 5));
    await page.keyboard.press('ArrowRight');
    await expect.poll(order).toEqual(alts(6, 7));
  });

  test('a 16-page edition does not widen the page', async ({ page, request }) => {
    const edition = await longEdition(request);
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/9`));
    await expect(page.locator('.thumbs a')).toHaveCount(edition.page_count);
    await expectNoSideways(page);
  });
});

test.describe('phone, 390×844 touch', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('one page fitted to the width; swipe, double tap; no key list', async ({
    page,
    request,
  }) => {
    const edition = await longEdition(request);
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/2`));
    await expect(shown(page)).toHaveCount(1);
    await expect(shown(page)).toHaveAttribute('alt', `Page 2 of ${edition.title}`);
    await expect(page.locator('[data-position]:visible')).toHaveText(
      `Page 2 of ${edition.page_count}`,
    );
    const viewport = (await page.locator('.viewport').boundingBox())!;
    const image = (await shown(page).boundingBox())!;
    // Fit to width: the page fills the reader's width (less its padding).
    expect(image.width).toBeGreaterThan(viewport.width - 24);
    expect(image.width).toBeLessThanOrEqual(viewport.width);
    await expectNoSideways(page);
    await expect(page.locator('[data-hint]')).toBeHidden();
    await screenshot(page, 'reader-390');
    await checkA11y(page);

    // Next moves one page on a phone.
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/page\/3$/);

    // A swipe to the left turns to the next page.
    await swipe(page, -150);
    await expect(page).toHaveURL(/\/page\/4$/);
    await expect(shown(page)).toHaveAttribute('alt', `Page 4 of ${edition.title}`);
    await swipe(page, 150);
    await expect(page).toHaveURL(/\/page\/3$/);

    // A double tap zooms to 200 %, a second one back to 100 %.
    await shown(page).dblclick();
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '2');
    await expect(page.getByRole('link', { name: 'Zoom out' })).toBeInViewport();
    await shown(page).dblclick();
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1');

    // Two fingers spreading apart zoom in one level, pinching together zoom out again.
    await pinch(page, 60, 160);
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
    await pinch(page, 160, 60);
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1');
    await expect(page).toHaveURL(/\/page\/3$/);
  });

  test('with a 24 px default font the full-screen button is as large as the page buttons', async ({
    page,
    request,
  }) => {
    // Before: its 16 px mark kept it 37 px tall beside 57 px buttons (shorter at every text size).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 20 } });
    const edition = await longEdition(request);
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/2`));
    const button = page.getByRole('button', { name: 'Full screen' });
    const fullscreen = (await button.boundingBox())!;
    const next = (await page.getByRole('link', { name: /Next page/ }).boundingBox())!;
    expect(fullscreen.height).toBeGreaterThanOrEqual(next.height - 1);
    // Its mark grows with the text (0.95 × 24 px), as the arrows of the page buttons do.
    expect((await button.locator('svg').boundingBox())!.width).toBeGreaterThanOrEqual(20);
  });

  for (const font of [16, 24]) {
    test(`a 16-page edition does not scroll sideways at 320 px with a ${font} px default font`, async ({
      page,
      request,
    }) => {
      // Before, at 24 px: "Page 9 of 16" kept 7.5rem between its arrows, 41 px wider than the screen.
      await page.setViewportSize({ width: 320, height: 640 });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: font, fixed: 20 } });
      const edition = await longEdition(request);
      await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/9`));
      await expect(page.locator('.thumbs a')).toHaveCount(edition.page_count);
      await expectNoSideways(page);
    });
  }
});

for (const [width, height, font] of [
  [390, 844, 16],
  [390, 844, 24],
  [1280, 720, 16],
  [1280, 720, 24],
] as const) {
  test(`at ${width} px with a ${font} px default font the toolbar takes at most two rows`, async ({
    page,
    request,
  }) => {
    // Before: three rows (213 of 844 px) at 390 px with a 24 px font, the go-to form alone on the third.
    await page.setViewportSize({ width, height });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: font, fixed: 20 } });
    const edition = await longEdition(request);
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/3`));
    await expect(page.getByRole('button', { name: 'Full screen' })).toBeVisible();
    const controls = await page
      .locator('.toolbar')
      .getByRole('link')
      .or(page.locator('.toolbar').getByRole('button'))
      .or(page.locator('.toolbar').getByRole('spinbutton'))
      .filter({ visible: true })
      .evaluateAll((elements) =>
        elements.map((e) => e.getBoundingClientRect().toJSON() as DOMRect),
      );
    let rows = 0;
    let bottom = -Infinity;
    for (const box of controls.sort((a, b) => a.top - b.top)) {
      if (box.top >= bottom) rows += 1;
      bottom = Math.max(bottom, box.bottom);
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    expect(rows).toBeLessThanOrEqual(2);
    // Every page stays one tap away (the strip of thumbnails, where the go-to form is left out).
    await expect(page.locator('.thumbs a')).toHaveCount(edition.page_count);
    await expectNoSideways(page);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the layout still follows the screen: spreads at 1280, single pages at 390', async ({
    page,
    request,
  }) => {
    const edition = await longEdition(request);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/3`));
    await expect(shown(page)).toHaveCount(2);
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/page\/4#reader-pages$/);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(shown(page)).toHaveCount(1);
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/page\/5#reader-pages$/);
    await expect(shown(page)).toHaveAttribute('alt', `Page 5 of ${edition.title}`);
  });
});

/** A one-finger horizontal swipe over the page, through Chromium's touch input. */
async function swipe(page: Page, dx: number): Promise<void> {
  const box = (await page.locator('.viewport').boundingBox())!;
  const y = box.y + Math.min(box.height, 500) / 2;
  const x = box.x + box.width / 2 - dx / 2;
  const cdp = await page.context().newCDPSession(page);
  const point = (px: number) => [{ x: px, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(x) });
  for (let step = 1; step <= 5; step++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: point(x + (dx * step) / 5),
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Two fingers over the page moving from `from` to `to` pixels apart. */
async function pinch(page: Page, from: number, to: number): Promise<void> {
  const box = (await page.locator('.viewport').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(box.height, 500) / 2;
  const cdp = await page.context().newCDPSession(page);
  const fingers = (span: number) => [
    { x: x - span / 2, y, id: 1 },
    { x: x + span / 2, y, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(from) });
  for (let step = 1; step <= 5; step++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: fingers(from + ((to - from) * step) / 5),
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
