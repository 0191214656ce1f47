import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { checkA11y, tenantUrl } from './helpers.ts';
import { editionPageOf, upstreamOf } from './images.ts';

const API = 'http://127.0.0.1:4010/api/v1';
const TENANT = 'daily-planet';

interface ApiEdition {
  title: string;
  slug: string;
  is_free: boolean;
  page_count: number;
  cover_image_url: string;
  published_at: string;
  pages?: { page_number: number; image_url: string }[];
}

async function apiEditions(request: APIRequestContext): Promise<ApiEdition[]> {
  const response = await request.get(`${API}/epaper?per_page=50`, {
    headers: { 'X-Tenant': TENANT },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: ApiEdition[] }).data;
}

/** The edition as the paying subscriber sees it (a real token from the mock). */
async function subscriberEdition(request: APIRequestContext, slug: string): Promise<ApiEdition> {
  const login = await request.post(`${API}/auth/login`, {
    headers: { 'X-Tenant': TENANT },
    data: { email: 'subscriber@masthead.test', password: 'masthead-demo' },
  });
  expect(login.ok()).toBe(true);
  const { data } = (await login.json()) as { data: { token: string } };
  const response = await request.get(`${API}/epaper/${slug}`, {
    headers: { 'X-Tenant': TENANT, Authorization: `Bearer ${data.token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: ApiEdition }).data;
}

const pageImage = (page: Page) => page.locator('img[data-page-image]');
const currentThumb = (page: Page) => page.locator('.thumbs a[aria-current="page"]');

async function expectPage(page: Page, n: number, edition: ApiEdition): Promise<void> {
  await expect(pageImage(page)).toHaveAttribute('alt', `Page ${n} of ${edition.title}`);
  // Through the image route: the free edition's upstream page, or the subscriber's page by number.
  await expect
    .poll(async () => {
      const src = await pageImage(page).getAttribute('src');
      const upstreamPage = upstreamOf(src)?.match(/\/pages\/(\d+)\.\w+$/)?.[1];
      return String(editionPageOf(src)?.page ?? upstreamPage);
    })
    .toBe(String(n));
  await expect(currentThumb(page)).toHaveAttribute('data-go', String(n));
}

test('the edition list shows covers, newest first, with a public cache', async ({
  page,
  request,
}) => {
  const editions = await apiEditions(request);
  const response = await page.goto(tenantUrl(TENANT, '/epaper'));
  expect(response?.headers()['cache-control']).toContain('public');
  await expect(page.getByRole('heading', { level: 1, name: 'E-paper' })).toBeVisible();
  const cards = page.locator('article.edition');
  await expect(cards).toHaveCount(Math.min(12, editions.length));
  const titles = await cards.locator('.title').allInnerTexts();
  expect(titles).toEqual(editions.slice(0, 12).map((e) => e.title));
  const covers = await cards
    .locator('img')
    .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).getAttribute('src')));
  // Each cover through the image route, never the upstream's own address.
  expect(covers.map(upstreamOf)).toEqual(editions.slice(0, 12).map((e) => e.cover_image_url));
  // Covers actually load.
  await expect
    .poll(() =>
      cards
        .first()
        .locator('img')
        .evaluate((img) => (img as HTMLImageElement).naturalWidth),
    )
    .toBeGreaterThan(0);
  await expect(cards.first().getByText('Subscribers')).toBeVisible();
  await checkA11y(page);

  const beyond = await page.goto(tenantUrl(TENANT, '/epaper?page=99'));
  expect(beyond?.status()).toBe(404);
});

test('a free edition: keys, thumbnails and zoom change the page and the URL', async ({
  page,
  request,
}) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  const response = await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}`));
  expect(response?.headers()['cache-control']).toContain('public');
  await expectPage(page, 1, edition);
  await expect(page.locator('.thumbs a')).toHaveCount(edition.page_count);
  await expect(page.locator('.thumbs img').first()).toHaveAttribute('loading', 'lazy');
  // The page in view goes first; the strip beside it never holds it up (issue 38).
  await expect(page.locator('[data-page-image]')).toHaveAttribute('fetchpriority', 'high');
  await expect(page.locator('.thumbs img').first()).toHaveAttribute('fetchpriority', 'low');
  await expect(page.locator('[data-hint]')).toBeVisible();

  await page.keyboard.press('ArrowRight');
  await expectPage(page, 2, edition);
  await expect(page).toHaveURL(/\/page\/2$/);
  // 1280×720: two-page spreads, so page 2 comes with page 3.
  await expect(page.locator('[data-live]')).toHaveText(`Pages 2–3 of ${edition.page_count}`);
  await page.keyboard.press('ArrowLeft');
  await expectPage(page, 1, edition);
  await expect(page).toHaveURL(new RegExp(`/epaper/${edition.slug}$`));

  await page.locator('.thumbs a[data-go="4"]').click();
  await expectPage(page, 4, edition);
  await expect(page).toHaveURL(/\/page\/4$/);
  await page.keyboard.press('End');
  await expectPage(page, edition.page_count, edition);
  await page.keyboard.press('Home');
  await expectPage(page, 1, edition);
  await page.getByRole('link', { name: /Next page/ }).click();
  await expectPage(page, 2, edition);

  // Zoom: buttons and keys; the page image grows and the URL keeps the level.
  const before = (await pageImage(page).boundingBox())!.width;
  await page.getByRole('link', { name: 'Zoom in' }).click();
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
  await expect(page).toHaveURL(/\/page\/2\/zoom\/1\.5$/);
  await page.keyboard.press('+');
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '2');
  await expect(page.locator('[data-zoom-label]')).toHaveText('200%');
  expect((await pageImage(page).boundingBox())!.width).toBeGreaterThan(before * 1.9);
  // Zoomed in, → pans the enlarged page instead of turning it.
  const viewport = page.locator('[data-viewport]');
  await viewport.evaluate((element) => element.scrollTo({ left: 0 }));
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => viewport.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  await expect(page).toHaveURL(/\/page\/2\/zoom\/2$/);
  await page.keyboard.press('-');
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
  await page.getByRole('link', { name: 'Zoom out' }).click();
  await expect(page).toHaveURL(/\/page\/2$/);

  // Keys stay with form fields.
  await page.getByLabel('Go to page').fill('3');
  await page.keyboard.press('ArrowRight');
  await expectPage(page, 2, edition);
  await page.getByRole('button', { name: 'Go' }).click();
  await expectPage(page, 3, edition);

  // A reload lands on the same page; the tab's title names it before and after.
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\/page\/4$/);
  await expect(page).toHaveTitle(`${edition.title}, page 4 · Daily Planet`);
  await page.reload();
  await expectPage(page, 4, edition);
  await expect(page).toHaveTitle(`${edition.title}, page 4 · Daily Planet`);
  await page.keyboard.press('Home');
  await expectPage(page, 1, edition);
  await expect(page).toHaveTitle(`${edition.title} · Daily Planet`);
  await checkA11y(page);
});

test('Back and Forward step between the pages turned in place, as the plain links do', async ({
  page,
  request,
}) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  await page.goto(tenantUrl(TENANT, '/epaper'));
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}`));
  await expectPage(page, 1, edition);
  // 1280×720: spreads, so the turns go 1 → 2 → 4; a zoom changes the entry, it adds none.
  await page.keyboard.press('ArrowRight');
  await expectPage(page, 2, edition);
  await page.keyboard.press('ArrowRight');
  await expectPage(page, 4, edition);
  await page.keyboard.press('+');
  await expect(page).toHaveURL(/\/page\/4\/zoom\/1\.5$/);

  await page.goBack();
  await expect(page).toHaveURL(/\/page\/2$/);
  await expectPage(page, 2, edition);
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1');
  await expect(page).toHaveTitle(`${edition.title}, page 2 · Daily Planet`);
  await page.goBack();
  await expectPage(page, 1, edition);
  await page.goForward();
  await expectPage(page, 2, edition);
  await page.goForward();
  await expectPage(page, 4, edition);
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
  // Back past the first page leaves the reader for the page before it.
  for (const _ of [4, 2]) await page.goBack();
  await expectPage(page, 1, edition);
  await page.goBack();
  await expect(page).toHaveURL(/\/epaper$/);
});

/**
 * Page 2 of a free edition at zoom 3, panned to (400, 300) as a finger or the keys do (`ended`:
 * waits for the browser's `scrollend`); `pan()` reads where the zoomed page is scrolled.
 */
async function zoomedAndPanned(page: Page, request: APIRequestContext, ended = true) {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/2/zoom/3`));
  await expectPage(page, 2, edition);
  const viewport = page.locator('[data-viewport]');
  const pan = () => viewport.evaluate((v) => [Math.round(v.scrollLeft), Math.round(v.scrollTop)]);
  await viewport.evaluate(
    (v, waits) =>
      new Promise((done) => {
        if (waits) v.addEventListener('scrollend', done, { once: true });
        v.scrollTo({ left: 400, top: 300 });
        if (!waits) done(undefined);
      }),
    ended,
  );
  await expect.poll(pan).toEqual([400, 300]);
  return { edition, pan };
}

test('a reload of a zoomed page shows the part of it that was in view', async ({
  page,
  request,
}) => {
  const { edition, pan } = await zoomedAndPanned(page, request);
  await page.reload();
  await expectPage(page, 2, edition);
  await expect.poll(pan).toEqual([400, 300]);
});

test('Back to a zoomed page shows the part of it that was in view when it was left', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 700, height: 900 });
  const { edition, pan } = await zoomedAndPanned(page, request);
  await page.locator('[data-mode="single"] [data-nav="next"]').click();
  await expectPage(page, 3, edition);
  await page.goBack();
  await expectPage(page, 2, edition);
  await expect.poll(pan).toEqual([400, 300]);
});

test('a reload of a zoomed page keeps the part in view in a browser without scrollend', async ({
  page,
  request,
}) => {
  // As Safari: no `scrollend` event.
  await page.addInitScript(() => {
    delete (HTMLElement.prototype as Partial<HTMLElement>).onscrollend;
    addEventListener('scrollend', (event) => event.stopImmediatePropagation(), { capture: true });
  });
  const { edition, pan } = await zoomedAndPanned(page, request, false);
  // Reloaded once the scrolling has paused (the reader keeps the position then).
  await page.waitForTimeout(400);
  await page.reload();
  await expectPage(page, 2, edition);
  await expect.poll(pan).toEqual([400, 300]);
});

test('a control that reaches its end hands the keyboard focus on, not back to the document', async ({
  page,
  request,
}) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  const last = edition.page_count;
  // Portrait: one page at a time.
  await page.setViewportSize({ width: 700, height: 900 });
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/${last - 1}`));
  const next = page.locator('[data-mode="single"] [data-nav="next"]');
  await next.focus();
  await page.keyboard.press('Enter');
  await expectPage(page, last, edition);
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator('[data-mode="single"] [data-nav="prev"]')).toBeFocused();
  await page.keyboard.press('Enter');
  await expectPage(page, last - 1, edition);

  const [zoomOut, zoomIn] = [
    page.locator('[data-zoom-to]').first(),
    page.locator('[data-zoom-to]').last(),
  ];
  await zoomIn.focus();
  for (const level of ['1.5', '2', '3']) {
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', level);
  }
  await expect(zoomIn).toHaveAttribute('aria-disabled', 'true');
  await expect(zoomOut).toBeFocused();
});

test('"Go to page" goes by the page\'s own address, never ?page= (a static copy ignores queries)', async ({
  page,
  request,
}) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/2`));
  const asked: string[] = [];
  page.on('request', (sent) => {
    if (sent.isNavigationRequest()) asked.push(sent.url());
  });
  await page.getByLabel('Go to page').fill('6');
  await page.getByLabel('Go to page').press('Enter');
  await expectPage(page, 6, edition);
  await expect(page).toHaveURL(/\/page\/6$/);
  expect(asked.filter((url) => url.includes('page='))).toEqual([]);
});

test('"Go to page" keeps the zoom chosen on the page', async ({ page, request }) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/2`));
  await page.getByRole('link', { name: 'Zoom in' }).click();
  await expect(page).toHaveURL(/\/page\/2\/zoom\/1\.5$/);
  await page.getByLabel('Go to page').fill('6');
  await page.getByRole('button', { name: 'Go' }).click();
  await expect(page).toHaveURL(/\/page\/6\/zoom\/1\.5$/);
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
  // And back at 100 %, the page loaded at 150 % no longer sends its zoom.
  await page.getByRole('link', { name: 'Zoom out' }).click();
  await page.getByLabel('Go to page').fill('8');
  await page.getByRole('button', { name: 'Go' }).click();
  await expect(page).toHaveURL(/\/page\/8$/);
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1');
});

test('"Go to page" with the field left empty keeps the page, not page 1', async ({
  page,
  request,
}) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}/page/6`));
  await page.getByLabel('Go to page').fill('');
  await page.getByRole('button', { name: 'Go' }).click();
  // The browser asks for a number instead of sending `?page=`, which the server reads as page 1.
  const missing = page
    .getByLabel('Go to page')
    .evaluate((field) => (field as HTMLInputElement).validity.valueMissing);
  expect(await missing).toBe(true);
  await page.waitForLoadState();
  await expect(page).toHaveURL(/\/page\/6$/);
  await expectPage(page, 6, edition);
});

test('?page=5 deep-links to page 5; out-of-range pages are clamped', async ({ page, request }) => {
  const edition = (await apiEditions(request)).find((e) => e.is_free)!;
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}?page=5`));
  await expectPage(page, 5, edition);
  await expect(page.getByText(`Pages 4–5 of ${edition.page_count}`)).toBeVisible();
  const { width, height } = await pageImage(page).evaluate((img) => ({
    width: (img as HTMLImageElement).getAttribute('width'),
    height: (img as HTMLImageElement).getAttribute('height'),
  }));
  expect([width, height]).toEqual(['1200', '1600']);
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}?page=999`));
  await expectPage(page, edition.page_count, edition);
  // At the last page's own address, not one more cached copy of it per number past the end.
  await expect(page).toHaveURL(new RegExp(`/epaper/${edition.slug}/page/${edition.page_count}$`));
  await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}?page=2&zoom=2`));
  await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '2');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('links and the go-to form turn pages and zoom', async ({ page, request }) => {
    const edition = (await apiEditions(request)).find((e) => e.is_free)!;
    await page.goto(tenantUrl(TENANT, `/epaper/${edition.slug}`));
    await expectPage(page, 1, edition);
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/page\/2#reader-pages$/);
    await expectPage(page, 2, edition);
    await page.locator('.thumbs a[data-go="5"]').click();
    await expect(page).toHaveURL(/\/page\/5#reader-pages$/);
    await expectPage(page, 5, edition);
    // Spreads (2–3, 4–5) at this width: "Previous" from page 5 goes to the spread 2–3.
    await page.getByRole('link', { name: /Previous page/ }).click();
    await expectPage(page, 2, edition);
    await page.getByRole('link', { name: 'Zoom in' }).click();
    await expect(page).toHaveURL(/\/page\/2\/zoom\/1\.5#reader-pages$/);
    await expect(page.locator('[data-reader]')).toHaveAttribute('data-zoom', '1.5');
    await page.getByLabel('Go to page').fill('7');
    await page.getByRole('button', { name: 'Go' }).click();
    await expectPage(page, 7, edition);
    await expect(page).toHaveURL(/zoom\/1\.5/);
    await expect(page.locator('[data-hint]')).toBeHidden();
  });
});

test('a subscriber-only edition shows anonymous visitors the paywall and no page image', async ({
  page,
  request,
}) => {
  const editions = await apiEditions(request);
  const newest = editions[0]!;
  expect(newest.is_free).toBe(false);
  const paid = await subscriberEdition(request, newest.slug);
  const pageUrls = (paid.pages ?? []).map((p) => p.image_url);
  expect(pageUrls.length).toBe(newest.page_count);

  const response = await page.goto(tenantUrl(TENANT, `/epaper/${newest.slug}?page=3`));
  expect(response?.status()).toBe(200);
  expect(response?.headers()['cache-control']).toBe('private, no-store');
  await expect(
    page.getByRole('heading', { name: 'This edition is for subscribers' }),
  ).toBeVisible();
  // Only the plans that unlock the e-paper (tenants.json `epaperPlans`), led by the first.
  const plans = page.locator('article.plan');
  await expect(plans).toHaveCount(2);
  await expect(page.getByText('Includes the e-paper')).toBeVisible();
  await expect(plans.first().getByRole('heading')).toHaveText('Digital + E-Paper');
  await expect(plans.first().locator('.price')).toContainText('per month');
  await expect(page.getByRole('link', { name: /^Subscribe at \S+ for / })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Digital', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'All plans' })).toHaveAttribute('href', '/plans');
  await expect(page.locator('.paywall').getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/epaper/${newest.slug}/page/3`)}`,
  );
  const html = await response!.text();
  for (const url of pageUrls) expect(html).not.toContain(url);
  expect(html).not.toContain(`/epaper/${newest.slug}/pages/`);
  await expect(page.locator('img[data-page-image]')).toHaveCount(0);
  await checkA11y(page);

  // Never stored in the route cache: a second anonymous request is rendered again.
  const again = await page.goto(tenantUrl(TENANT, `/epaper/${newest.slug}?page=3`));
  expect(again?.headers()['x-astro-cache'] ?? 'none').not.toBe('HIT');
  expect(await again!.text()).not.toContain('/pages/');
});

test('the paying subscriber logs in from the paywall and reads; anonymous visitors still cannot', async ({
  page,
  browser,
  request,
}) => {
  const login = await page.goto(tenantUrl(TENANT, '/login'));
  expect(login?.status()).toBe(200);
  const newest = (await apiEditions(request))[0]!;
  const pageUrls = ((await subscriberEdition(request, newest.slug)).pages ?? []).map(
    (p) => p.image_url,
  );

  await page.goto(tenantUrl(TENANT, `/epaper/${newest.slug}?page=3`));
  await page.locator('.paywall').getByRole('link', { name: 'Log in' }).click();
  await page.getByLabel('E-mail address').fill('subscriber@masthead.test');
  await page.getByLabel('Password').fill('masthead-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`/epaper/${newest.slug}/page/3$`));
  await expectPage(page, 3, newest);
  // The key list shows once the island listens: a key pressed before that would be lost.
  await expect(page.locator('[data-hint]')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expectPage(page, 4, newest);
  const signedIn = await page.goto(tenantUrl(TENANT, `/epaper/${newest.slug}`));
  expect(signedIn?.headers()['cache-control']).toBe('private, no-store');
  expect(signedIn?.headers()['x-astro-cache'] ?? 'none').not.toBe('HIT');
  // The subscriber's pages come through the site, by edition and page: never the upstream's URL.
  const subscriberHtml = await signedIn!.text();
  for (const url of pageUrls) expect(subscriberHtml).not.toContain(url);
  expect(editionPageOf(await pageImage(page).getAttribute('src'))).toEqual({
    edition: newest.slug,
    page: 1,
  });
  await checkA11y(page);

  // Right after the subscriber, an anonymous visitor of the same URL gets the paywall only.
  const anonymous = await browser.newContext();
  try {
    const other = await anonymous.newPage();
    const response = await other.goto(tenantUrl(TENANT, `/epaper/${newest.slug}`));
    await expect(
      other.getByRole('heading', { name: 'This edition is for subscribers' }),
    ).toBeVisible();
    const html = await response!.text();
    for (const url of pageUrls) expect(html).not.toContain(url);
  } finally {
    await anonymous.close();
  }
});

// Turning to a page not loaded yet (the next spread may be, ahead of the turn), or zooming in (a
// wider picture): the route refuses the page without the session.
for (const [key, what] of [
  ['End', 'a page turned to'],
  ['+', 'a zoom'],
] as const) {
  test(`signed out in another tab, ${what} shows the paywall, not a failure`, async ({
    page,
    request,
  }) => {
    const newest = (await apiEditions(request))[0]!;
    await page.goto(tenantUrl(TENANT, `/login?next=/epaper/${newest.slug}/page/3`));
    await page.getByLabel('E-mail address').fill('subscriber@masthead.test');
    await page.getByLabel('Password').fill('masthead-demo');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectPage(page, 3, newest);
    await expect(page.locator('[data-hint]')).toBeVisible();

    const other = await page.context().newPage();
    await other.goto(tenantUrl(TENANT, '/logout'));
    await other.getByRole('main').getByRole('button', { name: 'Log out' }).click();
    await expect(other.locator('.site-header').getByRole('link', { name: 'Log in' })).toBeVisible();
    await other.close();

    await page.keyboard.press(key);
    await expect(
      page.getByRole('heading', { name: 'This edition is for subscribers' }),
    ).toBeVisible();
    await expect(page.locator('[data-failed]')).toHaveCount(0);
    await expect(page.locator('article.plan')).toHaveCount(2);
    // Logging in again comes back to the page on screen.
    const shown = key === 'End' ? newest.page_count : 3;
    await expect(page.locator('.paywall').getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent(`/epaper/${newest.slug}/page/${shown}`)}`,
    );
  });
}
