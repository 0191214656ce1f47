import { expect, test, type Page } from '@playwright/test';
import { checkA11y, tenantUrl } from './helpers.ts';
import { upstreamOf } from './images.ts';
import { freeEdition } from './reader-boxes.ts';

// A page image that does not load (upstream down) says so in the page box, politely to screen
// readers, with "Try again" for that image and a link that loads the reader's page afresh; the
// browser alone would show only the alt text in an empty box. (A session ended in another tab
// shows the paywall instead: epaper.spec.ts.)
const TENANT = 'daily-planet';

/** Fails every image-route request for the listed pages of the free edition while `failing`. */
async function failPages(page: Page, pages: number[]) {
  const state = { failing: true };
  await page.route('**/_img/**', async (route) => {
    const upstreamPage = Number(upstreamOf(route.request().url())?.match(/\/pages\/(\d+)\./)?.[1]);
    if (state.failing && pages.includes(upstreamPage)) {
      await route.fulfill({ status: 503, body: 'down' });
    } else {
      await route.continue();
    }
  });
  return state;
}

const notice = (page: Page) => page.locator('[data-failed]');
const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test.describe('1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the opening page fails: a notice in the page box, then Try again loads it', async ({
    page,
  }) => {
    const { slug } = await freeEdition(page);
    const upstream = await failPages(page, [1]);
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}`));
    await expect(notice(page)).toBeVisible();
    await expect(notice(page)).toContainText('Page 1 could not be loaded.');
    await expect(page.locator('[data-live]')).toHaveText('Page 1 could not be loaded.');
    // Inside the page box, not below the fold.
    const box = (await page.locator('[data-viewport]').boundingBox())!;
    const shown = (await notice(page).boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(box.y);
    expect(shown.y + shown.height).toBeLessThanOrEqual(Math.min(box.y + box.height, 720));
    await checkA11y(page);

    upstream.failing = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => loaded(page, '[data-page-image]')).toBe(true);
    await expect(notice(page)).toBeHidden();
  });

  test('one page of a spread fails: the notice names it, the other page shows', async ({
    page,
  }) => {
    const { slug } = await freeEdition(page);
    await failPages(page, [3]);
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}`));
    await expect.poll(() => loaded(page, '[data-page-image]')).toBe(true);
    await expect(notice(page)).toBeHidden();
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/\/page\/2$/);
    await expect(notice(page)).toContainText('Page 3 could not be loaded.');
    await expect.poll(() => loaded(page, '[data-page-image]')).toBe(true);
    // Over page 3, the right-hand page, not over page 2 that loaded.
    const right = (await page.locator('[data-partner-image]').boundingBox())!;
    const shown = (await notice(page).boundingBox())!;
    expect(shown.x).toBeGreaterThanOrEqual(right.x);
    // Turning on to pages that load clears it.
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/\/page\/4$/);
    await expect.poll(() => loaded(page, '[data-page-image]')).toBe(true);
    await expect(notice(page)).toBeHidden();
  });
});

test.describe('390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a turned-to page fails; the link loads the reader at that page afresh', async ({
    page,
  }) => {
    const { slug } = await freeEdition(page);
    const upstream = await failPages(page, [2]);
    await page.goto(tenantUrl(TENANT, `/epaper/${slug}`));
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/page\/2$/);
    await expect(notice(page)).toContainText('Page 2 could not be loaded.');
    const reload = notice(page).getByRole('link', { name: 'Reload the reader' });
    // The page's own address, without a fragment: following it loads the page, never just scrolls.
    expect(new URL((await reload.getAttribute('href'))!, page.url()).href).toBe(
      tenantUrl(TENANT, `/epaper/${slug}/page/2`),
    );
    upstream.failing = false;
    await page.evaluate(() => Object.assign(window, { before: true }));
    await reload.click();
    await expect.poll(() => page.evaluate(() => 'before' in window)).toBe(false);
    await expect(page).toHaveURL(tenantUrl(TENANT, `/epaper/${slug}/page/2`));
    await expect.poll(() => loaded(page, '[data-page-image]')).toBe(true);
    await expect(notice(page)).toBeHidden();
  });
});
