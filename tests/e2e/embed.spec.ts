import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { checkA11y, E2E_PORT, tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

// The one-tag embed as a partner sees it: tests/e2e/partner/server.mjs serves the partner page
// (4322 is in harbour-times' allowedEmbedOrigins, 4323 is not).
const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const ALLOWED_PARTNER = 'http://127.0.0.1:4322';
const FOREIGN_PARTNER = 'http://127.0.0.1:4323';
const SITE = tenantUrl(HARBOUR, '').replace(/\/$/, '');

function partnerPage(partner: string, attributes: Record<string, string>): string {
  return `${partner}/?${new URLSearchParams({ site: SITE, ...attributes })}`;
}

/** What the loader (`/embed/booking.js`) writes to the partner page's console. */
function watchConsole(page: Page) {
  const messages: ConsoleMessage[] = [];
  page.on('console', (message) => {
    if (message.location().url.includes('/embed/booking.js')) messages.push(message);
  });
  const of = (type: 'error' | 'warning') =>
    messages.filter((m) => m.type() === type).map((m) => m.text());
  return { errors: () => of('error'), warnings: () => of('warning') };
}

test('on an origin outside allowedEmbedOrigins the tag becomes one link and one console error', async ({
  page,
}) => {
  const partnerConsole = watchConsole(page);
  const framed: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/embed/booking?')) framed.push(request.url());
  });
  const tag = { property: HARBOUR_VIEW, 'check-in': day(250), 'check-out': day(253), adults: '3' };
  await page.goto(partnerPage(FOREIGN_PARTNER, tag));
  // The link keeps the stay the tag named: the guest lands on it, prefilled.
  const link = page.getByRole('link', { name: 'Book at Harbour Times' });
  const kept = new URLSearchParams({
    property: HARBOUR_VIEW,
    checkIn: day(250),
    checkOut: day(253),
    adults: '3',
  });
  await expect(link).toHaveAttribute('href', `${SITE}/stay?${kept}`);
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(partnerConsole.errors()).toHaveLength(1);
  expect(partnerConsole.errors()[0]).toContain(`"${FOREIGN_PARTNER}"`);
  expect(partnerConsole.errors()[0]).toContain('allowedEmbedOrigins');
  expect(framed).toEqual([]);
  await checkA11y(page);

  // Even a hand-made iframe cannot frame the widget there, nor any other page of the site.
  const api = `http://127.0.0.1:${E2E_PORT}/${HARBOUR}`;
  const embed = await page.request.get(`${api}/embed/booking?property=${HARBOUR_VIEW}`);
  const csp = embed.headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`frame-ancestors 'self' http://partner.localhost:4322 ${ALLOWED_PARTNER}`);
  expect(csp).not.toContain(FOREIGN_PARTNER);
  const stay = await page.request.get(`${api}/stay`);
  expect(stay.headers()['x-frame-options']).toBe('DENY');
});

test('a wrong data-property: guests read a short notice, the partner reads why', async ({
  page,
}) => {
  const partnerConsole = watchConsole(page);
  await page.goto(partnerPage(ALLOWED_PARTNER, { property: 'not-our-hotel', 'check-in': '' }));
  const frame = page.frameLocator('iframe');
  await expect(frame.getByRole('alert')).toContainText(
    'Online booking is not available here at the moment.',
  );
  await expect(frame.getByRole('link', { name: 'Book at Harbour Times' })).toBeVisible();
  await expect(frame.locator('body')).not.toContainText('data-property');
  await expect.poll(() => partnerConsole.errors()).toHaveLength(1);
  expect(partnerConsole.errors()[0]).toContain('data-property "not-our-hotel" is not the id');
  expect(partnerConsole.errors()[0]).toContain(HARBOUR_VIEW);
  expect(partnerConsole.warnings()).toEqual([expect.stringContaining('data-check-in is empty')]);
  // The frame follows its (short) content instead of the 720 px fallback.
  await expect
    .poll(() => page.locator('iframe').evaluate((f: HTMLIFrameElement) => f.style.height))
    .not.toBe('720px');
  await checkA11y(page);
});

test('invalid and unsupported attributes are named in the partner console; the widget still works', async ({
  page,
}) => {
  const partnerConsole = watchConsole(page);
  await page.goto(
    partnerPage(ALLOWED_PARTNER, {
      property: HARBOUR_VIEW,
      adults: 'lots',
      currency: 'EUR',
      'check-in': day(230),
    }),
  );
  const frame = page.frameLocator('iframe');
  await expect(frame.getByLabel('Check-in')).toHaveValue(day(230));
  await expect.poll(() => partnerConsole.warnings()).toHaveLength(2);
  expect(partnerConsole.warnings()).toEqual(
    expect.arrayContaining([
      expect.stringContaining('data-currency was ignored'),
      expect.stringContaining('data-adults="lots" was ignored: expected a whole number'),
    ]),
  );
  expect(partnerConsole.errors()).toEqual([]);
});

test('a 320 px partner page: no step of the embedded flow scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(
    partnerPage(ALLOWED_PARTNER, {
      property: HARBOUR_VIEW,
      'check-in': day(240),
      'check-out': day(242),
    }),
  );
  const frame = page.frameLocator('iframe');
  const overflow = () =>
    frame.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'Who is coming?' })).toBeFocused();
  expect(await overflow()).toBe(0);
  await frame.getByRole('button', { name: 'Show rooms' }).click();
  await expect(frame.getByRole('heading', { name: 'Choose a room' })).toBeFocused();
  expect(await overflow()).toBe(0);
  await frame.getByRole('radio', { name: /Standard Double/ }).check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'Your details' })).toBeFocused();
  expect(await overflow()).toBe(0);
  // And the partner page itself does not scroll sideways because of the frame.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test('a 2560 px partner page: the two months share the widget’s width', async ({ page }) => {
  await page.setViewportSize({ width: 2560, height: 1400 });
  await page.goto(partnerPage(ALLOWED_PARTNER, { property: HARBOUR_VIEW }));
  const frame = page.frameLocator('iframe');
  await expect(frame.getByRole('grid')).toHaveCount(2);
  const [calendar, first, second] = await Promise.all(
    [frame.locator('[data-date-calendar]'), ...(await frame.getByRole('grid').all())].map(
      async (box) => (await box.boundingBox())!,
    ),
  );
  expect(first!.x).toBeCloseTo(calendar!.x, 0);
  expect(second!.x + second!.width).toBeCloseTo(calendar!.x + calendar!.width, 0);
  expect(second!.y).toBeCloseTo(first!.y, 0);
  expect(first!.width).toBeCloseTo(second!.width, 0);
});

test('a phone: the confirmation shows each value on full lines under its term', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(
    partnerPage(ALLOWED_PARTNER, {
      property: HARBOUR_VIEW,
      'check-in': day(246),
      'check-out': day(248),
    }),
  );
  const frame = page.frameLocator('iframe');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('button', { name: 'Show rooms' }).click();
  await frame.getByRole('radio', { name: /Standard Double/ }).check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByLabel('First name').fill('Pho');
  await frame.getByLabel('Last name').fill('Ne');
  await frame.getByLabel('E-mail').fill(`phone.${Date.now()}@example.com`);
  await frame.getByRole('button', { name: 'Review' }).click();
  await frame.getByRole('button', { name: 'Book' }).click();
  const list = frame.locator('[data-confirmation]');
  await expect(list).toBeVisible();
  // Not squeezed beside "Booking reference" into a column of a few words a line.
  const widths = await list.evaluate((dl) => ({
    list: dl.clientWidth,
    values: [...dl.querySelectorAll('dd')].map((dd) => dd.clientWidth),
  }));
  for (const width of widths.values) expect(width).toBe(widths.list);
});

test('dates typed with the keyboard (no calendar clicks) take, and Enter goes on to the guests', async ({
  page,
}) => {
  await page.goto(partnerPage(ALLOWED_PARTNER, { property: HARBOUR_VIEW }));
  const frame = page.frameLocator('iframe');
  // The browser's date fields take digits in its locale's order (en-US here: month, day, year).
  const typed = (iso: string) => {
    const [year, month, date] = iso.split('-');
    return `${month}${date}${year}`;
  };
  await frame.getByLabel('Check-in').focus();
  await page.keyboard.type(typed(day(250)));
  await frame.getByLabel('Check-out').focus();
  await page.keyboard.type(typed(day(252)));
  await expect(frame.getByLabel('Check-out')).toHaveValue(day(252));
  await frame.getByRole('button', { name: 'Continue' }).focus();
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('heading', { name: 'Who is coming?' })).toBeFocused();
});

test('data-locale speaks the widget’s language in the partner page too: frame title and fallback link', async ({
  page,
}) => {
  await page.goto(partnerPage(ALLOWED_PARTNER, { property: HARBOUR_VIEW, locale: 'de-CH' }));
  await expect(page.locator('iframe')).toHaveAttribute('title', 'Aufenthalt buchen');
  await expect(page.frameLocator('iframe').getByRole('button', { name: 'Weiter' })).toBeVisible();

  await page.goto(partnerPage(FOREIGN_PARTNER, { property: HARBOUR_VIEW, locale: 'fr-CH' }));
  await expect(page.getByRole('link', { name: 'Réserver chez Harbour Times' })).toBeVisible();
});

test('a loader on a shared host that picks the tenant by ?tenant= frames that tenant’s widget', async ({
  page,
}) => {
  const site = `http://127.0.0.1:${E2E_PORT}/?tenant=${HARBOUR}`;
  await page.goto(partnerPage(ALLOWED_PARTNER, { site, property: HARBOUR_VIEW }));
  await expect(page.frameLocator('iframe').getByRole('button', { name: 'Continue' })).toBeVisible();
});

test('a deep link to /stay (campaign, price comparison, fallback link) prefills both flows', async ({
  page,
  browser,
}) => {
  const link = new URLSearchParams({
    property: HARBOUR_VIEW,
    checkIn: day(260),
    nights: '3',
    adults: '1',
    children: '1',
  });
  await page.goto(tenantUrl(HARBOUR, `/stay?${link}`));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await expect(page.getByLabel('Check-in')).toHaveValue(day(260));
  await expect(page.getByLabel('Check-out')).toHaveValue(day(263));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Children')).toHaveValue('1');

  // Without the widget's script, the plain forms start from the same values.
  const context = await browser.newContext();
  await context.route('**/_astro/**/*.js', (route) => route.abort());
  const guest = await context.newPage();
  await guest.goto(tenantUrl(HARBOUR, `/stay?${link}`));
  const plain = guest.locator('masthead-booking');
  await expect(plain.getByLabel('Check-in')).toHaveValue(day(260));
  await expect(plain.getByLabel('Check-out')).toHaveValue(day(263));
  await context.close();
});
