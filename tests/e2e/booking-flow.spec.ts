import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { checkA11y, E2E_PORT, tenantUrl } from './helpers.ts';
import { day, dayIn } from '../fixtures/dates.ts';

/** The guest's journey: steps and history, honest status, the private manage link, no JavaScript. */

const CONTROL = process.env['MOCK_CONTROL_URL'] ?? 'http://127.0.0.1:4009';
const LODGING = 'http://127.0.0.1:4020/api/v1';
const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
/** Harbour View's own calendar (the mock's seed), an hour ahead of UTC. */
const HARBOUR_VIEW_ZONE = 'Europe/Amsterdam';
const SHOTS = process.env['SHOTS_DIR'];

interface DemoAccounts {
  lodging: Record<string, { fullToken: string; propertyIds: string[] }>;
}
const accounts = JSON.parse(readFileSync('mock/demo-accounts.json', 'utf8')) as DemoAccounts;
const harbourToken =
  Object.values(accounts.lodging).find((a) => a.propertyIds.includes(HARBOUR_VIEW))?.fullToken ??
  '';
const BASE = 420;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
}

async function noOverflow(page: Page): Promise<void> {
  const widths = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(widths[0], 'page scrolls sideways').toBeLessThanOrEqual(widths[1] ?? 0);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name });

/** The booking as the lodging API holds it (the mock is the truth). */
async function upstreamBooking(request: APIRequestContext, checkIn: string, reference: string) {
  const response = await request.get(
    `${LODGING}/bookings?property_id=${HARBOUR_VIEW}&check_in_from=${checkIn}&check_in_to=${checkIn}&per_page=100`,
    { headers: { Authorization: `Bearer ${harbourToken}`, Accept: 'application/json' } },
  );
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as {
    data: { id: string; reference: string; status: string }[];
  };
  const booking = body.data.find((b) => b.reference === reference);
  expect(booking, `booking ${reference} upstream`).toBeTruthy();
  return booking!;
}

async function toDetails(page: Page, checkIn: string, checkOut: string) {
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(checkIn);
  await page.getByLabel('Check-out').fill(checkOut);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(page, 'Who is coming?')).toBeFocused();
  await page.getByLabel('Adults').fill('2');
  await page.getByLabel('Children').fill('0');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(heading(page, 'Choose a room')).toBeFocused();
  await page.getByRole('radio', { name: /Standard Double/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(page, 'Your details')).toBeFocused();
}

async function fillDetails(page: Page, first: string) {
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill('Guest');
  await page.getByLabel('E-mail').fill(`${first.toLowerCase()}.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(heading(page, 'Check and book')).toBeFocused();
}

test.beforeAll(async ({ request }) => {
  await request.post(`${CONTROL}/reset`);
});

test.afterEach(async ({ request }) => {
  await request.delete(`${CONTROL}/faults`);
});

test('Back and reload on every step keep the step and what was typed; axe is clean', async ({
  page,
}) => {
  // Four steps, each left, reloaded and checked with axe: more than the default 30 s on 2 cores.
  test.slow();
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  const current = page.locator('[data-step-item][aria-current="step"]');
  await expect(current).toHaveText(/Dates/);
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(day(BASE));
  await page.getByLabel('Check-out').fill(day(BASE + 2));
  await page.reload();
  await expect(page.getByLabel('Check-in')).toHaveValue(day(BASE));
  await expect(page.getByLabel('Check-out')).toHaveValue(day(BASE + 2));
  await checkA11y(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Guests: Back returns to the dates, Forward comes back, a reload stays.
  await expect(heading(page, 'Who is coming?')).toBeFocused();
  await expect(current).toHaveText(/Guests/);
  await page.getByLabel('Adults').fill('2');
  await page.goBack();
  await expect(heading(page, 'When would you like to stay?')).toBeFocused();
  await expect(page.getByLabel('Check-in')).toHaveValue(day(BASE));
  await page.goForward();
  await expect(heading(page, 'Who is coming?')).toBeVisible();
  await page.reload();
  await expect(heading(page, 'Who is coming?')).toBeVisible();
  await expect(page.getByLabel('Adults')).toHaveValue('2');
  await checkA11y(page);
  await page.getByRole('button', { name: 'Show rooms' }).click();

  // Rooms.
  await expect(heading(page, 'Choose a room')).toBeFocused();
  await page.getByRole('radio', { name: /Standard Double/ }).check();
  await page.goBack();
  await expect(heading(page, 'Who is coming?')).toBeVisible();
  await page.goForward();
  await expect(heading(page, 'Choose a room')).toBeVisible();
  await page.reload();
  await expect(heading(page, 'Choose a room')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Standard Double/ })).toBeChecked();
  await checkA11y(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Details: typed text survives Back and a reload.
  await expect(heading(page, 'Your details')).toBeFocused();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Notes for the hotel (optional)').fill('Late arrival');
  await page.goBack();
  await expect(heading(page, 'Choose a room')).toBeVisible();
  await page.goForward();
  await expect(heading(page, 'Your details')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('First name')).toHaveValue('Ada');
  await expect(page.getByLabel('Notes for the hotel (optional)')).toHaveValue('Late arrival');
  await checkA11y(page);
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('E-mail').fill(`ada.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Review' }).click();

  // Review.
  await expect(heading(page, 'Check and book')).toBeFocused();
  await expect(current).toHaveText(/Review/);
  await page.goBack();
  await expect(heading(page, 'Your details')).toBeVisible();
  await page.goForward();
  await expect(heading(page, 'Check and book')).toBeVisible();
  await page.reload();
  await expect(heading(page, 'Check and book')).toBeVisible();
  await expect(page.locator('[data-review]')).toContainText('Late arrival');
  await checkA11y(page);
  await page.getByRole('button', { name: 'Book' }).click();

  // Done: a reload keeps the confirmation.
  await expect(heading(page, 'Request received')).toBeFocused();
  await checkA11y(page);
  await page.reload();
  await expect(heading(page, 'Request received')).toBeVisible();
});

test('a pending booking says "request received", the manage link shows it confirmed, then cancels it without JavaScript', async ({
  page,
  browser,
  request,
}) => {
  const checkIn = day(BASE + 5);
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await toDetails(page, checkIn, day(BASE + 8));
  await fillDetails(page, 'Grace');
  await page.getByRole('button', { name: 'Book' }).click();

  await expect(heading(page, 'Request received')).toBeFocused();
  await expect(page.getByText('The hotel will confirm your booking.')).toBeVisible();
  await expect(page.getByText('Booking confirmed')).toHaveCount(0);
  const summary = page.locator('[data-confirmation]');
  await expect(summary).toContainText('Requested: the hotel will confirm');
  await expect(summary).toContainText('Harbour View Hotel');
  await expect(summary).toContainText('€');
  const reference = /BK-[A-Z0-9]{6}/.exec(await summary.innerText())?.[0] ?? '';
  expect(reference).not.toBe('');
  const manage = await page
    .getByRole('link', { name: /See or cancel this booking/ })
    .getAttribute('href');
  expect(manage).toMatch(/\/stay\/manage\/[\w-]+\.[\w-]+$/);
  // The widget offers the manage page's own calendar file (one .ics for every way of booking; its
  // content is checked below).
  const calendarLink = page.getByRole('link', { name: 'Add to calendar' });
  await expect(calendarLink).toHaveAttribute('href', `${manage}/calendar.ics`);
  expect((await upstreamBooking(request, checkIn, reference)).status).toBe('pending');

  // The hotel confirms: the manage page says so, in the guest's words.
  const booking = await upstreamBooking(request, checkIn, reference);
  const confirm = await request.patch(`${LODGING}/bookings/${booking.id}`, {
    headers: { Authorization: `Bearer ${harbourToken}`, Accept: 'application/json' },
    data: { status: 'confirmed' },
  });
  expect(confirm.ok()).toBe(true);

  const url = new URL(manage!, page.url()).href;
  const answer = await page.goto(url);
  expect(answer?.headers()['cache-control']).toContain('no-store');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
  await expect(heading(page, 'Booking confirmed')).toBeVisible();
  await checkA11y(page);
  await page.goto(`${url}?cancel=1`);
  await expect(heading(page, 'Cancel this booking?')).toBeVisible();
  await checkA11y(page);

  // axe needs scripts: the guest without JavaScript comes after the checks.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const guest = await noJs.newPage();
  await guest.goto(url);
  await expect(heading(guest, 'Booking confirmed')).toBeVisible();
  // Node cannot resolve *.localhost: the same token under the path-prefix address.
  const token = url.split('/').pop() ?? '';
  const ics = await guest.request.get(
    `http://127.0.0.1:${E2E_PORT}/${HARBOUR}/stay/manage/${token}/calendar.ics`,
  );
  expect(ics.headers()['content-type']).toContain('text/calendar');
  const confirmedIcs = await ics.text();
  expect(confirmedIcs).toContain(`DTSTART;VALUE=DATE:${checkIn.replaceAll('-', '')}`);
  expect(confirmedIcs).toContain('STATUS:CONFIRMED');

  // Cancelling asks first, then the lodging API holds it cancelled and the page says so.
  await guest.getByRole('link', { name: 'Cancel this booking' }).click();
  await expect(heading(guest, 'Cancel this booking?')).toBeVisible();
  await guest.getByRole('button', { name: 'Yes, cancel the booking' }).click();
  await expect(guest.getByText('Your booking is cancelled.')).toBeVisible();
  await expect(heading(guest, 'Booking cancelled')).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Cancel this booking' })).toHaveCount(0);
  expect((await upstreamBooking(request, checkIn, reference)).status).toBe('cancelled');
  // Cancelled everywhere: no calendar entry offered, no "anyone can cancel it", and an .ics
  // fetched from before says CANCELLED (and no longer blocks the days).
  await guest.reload();
  await expect(heading(guest, 'Booking cancelled')).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Add to calendar' })).toHaveCount(0);
  await expect(guest.locator('main')).not.toContainText('cancel this booking. Keep');
  await expect(guest.getByText('anyone with its address can see this booking')).toBeVisible();
  await expect(guest.getByText('Contact the hotel: +44 20 7946 0000')).toBeVisible();
  const cancelledIcs = await (
    await guest.request.get(
      `http://127.0.0.1:${E2E_PORT}/${HARBOUR}/stay/manage/${token}/calendar.ics`,
    )
  ).text();
  expect(cancelledIcs).toContain('STATUS:CANCELLED');
  await noJs.close();
});

test('a stay whose check-in day has begun offers no cancel on its manage page, and says whom to ask', async ({
  page,
}) => {
  // Today is check-in: bookable, and from today on it is the hotel's to cancel, not the link's.
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await toDetails(page, dayIn(HARBOUR_VIEW_ZONE, 0), dayIn(HARBOUR_VIEW_ZONE, 2));
  await fillDetails(page, 'Begun');
  await page.getByRole('button', { name: 'Book' }).click();
  await expect(heading(page, 'Request received')).toBeFocused();
  // Its last step offers to see it, not to cancel it.
  await expect(page.getByRole('link', { name: /cancel/i })).toHaveCount(0);
  const manage = await page
    .getByRole('link', { name: 'See this booking later' })
    .getAttribute('href');
  const url = new URL(manage!, page.url()).href;
  for (const address of [url, `${url}?cancel=1`]) {
    await page.goto(address);
    await expect(
      page.getByText('Your stay has begun, so it can no longer be cancelled online.'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cancel this booking' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Yes, cancel the booking' })).toHaveCount(0);
  }
  await checkA11y(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await noOverflow(page);
    await shoot(page, 'manage-begun');
  }
});

test('a tampered manage link, or another tenant’s, shows nothing', async ({ page }) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await toDetails(page, day(BASE + 10), day(BASE + 12));
  await fillDetails(page, 'Mallory');
  await page.getByRole('button', { name: 'Book' }).click();
  await expect(heading(page, 'Request received')).toBeFocused();
  const manage = (await page
    .getByRole('link', { name: /See or cancel this booking/ })
    .getAttribute('href'))!;
  const token = manage.split('/').pop() ?? '';
  const reference =
    /BK-[A-Z0-9]{6}/.exec(await page.locator('[data-confirmation]').innerText())?.[0] ?? '';

  const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  const [payload = '', signature = ''] = token.split('.');
  const other = JSON.parse(Buffer.from(payload, 'base64url').toString()) as string[];
  other[2] = 'BK-AAAAAA';
  const forged = `${Buffer.from(JSON.stringify(other)).toString('base64url')}.${signature}`;
  for (const [host, path] of [
    [HARBOUR, `/stay/manage/${flipped}`],
    [HARBOUR, `/stay/manage/${forged}`],
    [HARBOUR, `/stay/manage/${token}x`],
    ['alpine-post', `/stay/manage/${token}`],
    ['alpine-post', `/stay/manage/${token}/calendar.ics`],
  ] as const) {
    const response = await page.goto(tenantUrl(host, path));
    expect(response?.status(), `${host}${path}`).toBe(404);
    await expect(page.locator('body')).not.toContainText(reference);
  }
});

test('waiting for rooms shows a busy text and leaves the form usable', async ({
  page,
  request,
}) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(day(BASE + 20));
  await page.getByLabel('Check-out').fill(day(BASE + 22));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Adults').fill('2');
  await page.getByLabel('Children').fill('1');
  await request.post(`${CONTROL}/faults`, { data: { service: 'lodging', latencyMs: 2500 } });
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Looking for free rooms…' }),
  ).toBeVisible();
  await expect(page.locator('masthead-booking')).toHaveAttribute('aria-busy', '');
  await expect(page.getByLabel('Children')).toBeEditable();
  await expect(heading(page, 'Choose a room')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Looking for free rooms…')).toHaveCount(0);

  // Rooms as cards: the price per night, and why a room cannot be chosen.
  await expect(page.locator('.room').first()).toContainText('per night');
  await expect(page.getByText(/Sleeps \d: you are 3/).first()).toBeVisible();
  // Capacity as the rules have it: the double takes three, but never three adults.
  await expect(page.locator('.room', { hasText: 'Standard Double' })).toContainText(
    'Sleeps 3, at most 2 adults',
  );
});

test('a lost connection keeps the step and what was typed, and the same button sends it again', async ({
  page,
}) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(day(BASE + 24));
  await page.getByLabel('Check-out').fill(day(BASE + 26));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(page, 'Who is coming?')).toBeFocused();
  await page.getByLabel('Adults').fill('1');
  await page.getByLabel('Children').fill('1');
  // The network drops the next step's request.
  await page.route('**/stay?*step=rooms*', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'We could not reach the booking service' }),
  ).toBeVisible();
  await expect(heading(page, 'Who is coming?')).toBeVisible();
  await expect(page.getByLabel('Adults')).toHaveValue('1');
  await expect(page.getByLabel('Children')).toHaveValue('1');
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(heading(page, 'Choose a room')).toBeFocused();
  await expect(page.getByText(/2 guests/)).toBeVisible();
});

for (const width of [390, 1280, 320]) {
  test(`every step at ${width} px: no sideways scrolling${SHOTS ? ', screenshots' : ''}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(tenantUrl(HARBOUR, '/stay'));
    await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
    await noOverflow(page);
    await shoot(page, '1-dates');
    await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
    await page.getByLabel('Check-in').fill(day(BASE + 30 + (width % 7)));
    await page.getByLabel('Check-out').fill(day(BASE + 33 + (width % 7)));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(heading(page, 'Who is coming?')).toBeFocused();
    await page.getByLabel('Adults').fill('2');
    await page.getByLabel('Children').fill('1');
    await noOverflow(page);
    await shoot(page, '2-guests');
    await page.getByRole('button', { name: 'Show rooms' }).click();
    await expect(heading(page, 'Choose a room')).toBeFocused();
    await page.getByRole('radio', { name: /Sea View Suite/ }).check();
    await noOverflow(page);
    await shoot(page, '3-rooms');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(heading(page, 'Your details')).toBeFocused();
    await noOverflow(page);
    await shoot(page, '4-details');
    await fillDetails(page, 'Katherine');
    await noOverflow(page);
    await shoot(page, '5-review');
    await page.getByRole('button', { name: 'Book' }).click();
    await expect(heading(page, 'Request received')).toBeFocused();
    await noOverflow(page);
    await shoot(page, '6-done');
    const manage = await page.getByRole('link', { name: /See or cancel/ }).getAttribute('href');
    await page.goto(new URL(manage!, page.url()).href);
    await noOverflow(page);
    await shoot(page, '7-manage');
  });
}

test('a look-alike e-mail is refused at the details, with the field focused and what was typed kept', async ({
  page,
  request,
}) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await toDetails(page, day(BASE + 30), day(BASE + 32));
  await page.getByLabel('First name').fill('Zed');
  await page.getByLabel('Last name').fill('Guest');
  const lookAlike = 'zed-x@ex\u0430mple.com'; // a Cyrillic "а"
  await page.getByLabel('E-mail').fill(lookAlike);
  // Chromium keeps an e-mail field's international domain as punycode (`xn--exmple-4nf.com`).
  const typed = await page.getByLabel('E-mail').inputValue();
  const before = await writes(request);
  await page.getByRole('button', { name: 'Review' }).click();

  const email = page.getByLabel('E-mail');
  await expect(email).toBeFocused();
  await expect(heading(page, 'Your details')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveValue(typed);
  await expect(page.locator('#booking-email-error')).toContainText('another alphabet');
  await expect(page.getByLabel('First name')).toHaveValue('Zed');
  expect(await writes(request)).toBe(before);
});

test('without JavaScript: dates to confirmation as plain forms, Back links, field messages kept', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const guest = await context.newPage();
  await guest.goto(tenantUrl(HARBOUR, '/stay'));
  const plain = guest.locator('masthead-booking');
  await expect(heading(guest, 'When would you like to stay?')).toBeVisible();
  await expect(guest.getByText('Booking needs JavaScript')).toHaveCount(0);
  await plain.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await plain.getByLabel('Check-in').fill(day(BASE + 50));
  await plain.getByLabel('Check-out').fill(day(BASE + 49));
  await guest.getByRole('button', { name: 'Continue' }).click();
  await expect(guest.getByText('Check-out must be after check-in.')).toBeVisible();
  await shoot(guest, 'nojs-1-dates-error');
  await plain.getByLabel('Check-out').fill(day(BASE + 52));
  await guest.getByRole('button', { name: 'Continue' }).click();

  await expect(heading(guest, 'Who is coming?')).toBeVisible();
  await shoot(guest, 'nojs-2-guests');
  await plain.getByLabel('Adults').fill('2');
  await plain.getByLabel('Children').fill('1');
  await guest.getByRole('button', { name: 'Show rooms' }).click();

  await expect(heading(guest, 'Choose a room')).toBeVisible();
  await shoot(guest, 'nojs-3-rooms');
  await expect(guest.getByText(/Sleeps \d: you are 3/).first()).toBeVisible();
  // The room cards say capacity, prices and what is left, with or without JavaScript.
  const double = plain.locator('.room', { hasText: 'Standard Double' });
  await expect(double).toContainText('Sleeps 3, at most 2 adults');
  await expect(double).toContainText('per night');
  await guest.getByRole('link', { name: 'Back' }).click();
  await expect(plain.getByLabel('Children')).toHaveValue('1');
  await guest.getByRole('button', { name: 'Show rooms' }).click();
  await guest.getByRole('radio', { name: /Sea View Suite/ }).check();
  await guest.getByRole('button', { name: 'Continue' }).click();

  await expect(heading(guest, 'Your details')).toBeVisible();
  await shoot(guest, 'nojs-4-details');
  await plain.getByLabel('First name').fill('Hedy');
  await plain.getByLabel('Last name').fill('Lamarr');
  await plain.getByLabel('E-mail').fill('not-an-address');
  await guest.getByRole('button', { name: 'Review' }).click();
  await expect(guest.getByText('Enter an e-mail address such as name@example.com.')).toBeVisible();
  await expect(plain.getByLabel('First name')).toHaveValue('Hedy');
  // A look-alike domain (a Cyrillic "а"), which the browser posts as punycode, is refused too.
  await plain.getByLabel('E-mail').fill('hedy@ex\u0430mple.com');
  await guest.getByRole('button', { name: 'Review' }).click();
  await expect(guest.getByText(/letters of another alphabet/)).toBeVisible();
  await plain.getByLabel('E-mail').fill(`hedy.${Date.now()}@example.com`);
  await guest.getByRole('button', { name: 'Review' }).click();

  await expect(heading(guest, 'Check and book')).toBeVisible();
  await shoot(guest, 'nojs-5-review');
  await expect(plain.locator('.summary')).toContainText('Sea View Suite');
  await expect(plain.locator('.summary')).toContainText('2 adults, 1 child');
  await guest.getByRole('button', { name: 'Book' }).click();

  // The e2e site mails confirmations (tests/e2e/mail/server.mjs): the page says it went out.
  await expect(guest).toHaveURL(/\/stay\/manage\/[\w-]+\.[\w-]+\?mailed=1$/);
  await expect(heading(guest, 'Request received')).toBeVisible();
  await expect(guest.getByText('We have e-mailed the link to this page')).toBeVisible();
  await shoot(guest, 'nojs-6-manage');
  await expect(guest.locator('.summary')).toContainText('Sea View Suite');
  await context.close();
});

test('the calendar picks dates by keyboard, within the stay rules, two months wide and one on phones', async ({
  page,
}) => {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  const grids = page.getByRole('grid');
  await expect(grids).toHaveCount(2);
  await checkA11y(page);
  await shoot(page, '0-calendar');

  const stop = page.locator('[data-date-calendar] [data-day][tabindex="0"]');
  await stop.focus();
  for (const key of ['PageDown', 'PageDown', 'PageDown', 'ArrowDown', 'Home'])
    await page.keyboard.press(key);
  const checkIn =
    (await page.evaluate(() => document.activeElement?.getAttribute('data-day'))) ?? '';
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Check-in')).toHaveValue(checkIn);
  await expect(page.locator(`[data-day="${checkIn}"]`)).toHaveAttribute('aria-selected', 'true');

  // Only check-outs from one to 21 nights can be picked now.
  const wrong = await page.evaluate((from) => {
    const max = new Date(`${from}T00:00:00Z`);
    max.setUTCDate(max.getUTCDate() + 21);
    const last = max.toISOString().slice(0, 10);
    return [...document.querySelectorAll<HTMLElement>('[data-date-calendar] [data-day]')]
      .filter((cell) => {
        const day = cell.dataset['day'] ?? '';
        const disabled = cell.getAttribute('aria-disabled') === 'true';
        return day > from && (day > last ? !disabled : disabled);
      })
      .map((cell) => cell.dataset['day']);
  }, checkIn);
  expect(wrong).toEqual([]);

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Check-out')).not.toHaveValue('');
  await expect(page.getByText('2 nights')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 900 });
  await page.reload();
  await expect(page.getByRole('grid')).toHaveCount(1);
  await noOverflow(page);
  await shoot(page, '0-calendar');

  // Back from the next step shows the calendar at the dates picked, not at today's month.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(page, 'Who is coming?')).toBeFocused();
  await page.goBack();
  await expect(page.locator(`[data-day="${checkIn}"]`)).toHaveAttribute('aria-selected', 'true');
});

test('at 2560 px the two months share the widget’s width', async ({ page }) => {
  await page.setViewportSize({ width: 2560, height: 1400 });
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await expect(page.getByRole('grid')).toHaveCount(2);
  const [calendar, first, second] = await Promise.all(
    [page.locator('[data-date-calendar]'), ...(await page.getByRole('grid').all())].map(
      async (box) => (await box.boundingBox())!,
    ),
  );
  // Side by side, from the calendar's left edge to its right one, the same width each.
  expect(first!.x).toBeCloseTo(calendar!.x, 0);
  expect(second!.x + second!.width).toBeCloseTo(calendar!.x + calendar!.width, 0);
  expect(second!.y).toBeCloseTo(first!.y, 0);
  expect(first!.width).toBeCloseTo(second!.width, 0);
});

/** Upstream writes so far: a resubmitted form would show up here. */
async function writes(request: APIRequestContext): Promise<number> {
  const stats = (await (await request.get(`${CONTROL}/stats`)).json()) as {
    lodging: { routes: Record<string, number> };
  };
  return Object.entries(stats.lodging.routes)
    .filter(([route]) => /^(POST|PATCH|DELETE) \/bookings/.test(route))
    .reduce((sum, [, n]) => sum + n, 0);
}

test('without the widget’s script: Back and reload after every step and after booking never send a form again; axe is clean', async ({
  browser,
  request,
}) => {
  test.slow();
  // The plain forms as a guest whose script never arrives sees them (axe needs scripts of its own).
  const context = await browser.newContext();
  await context.route('**/_astro/**/*.js', (route) => route.abort());
  const guest = await context.newPage();
  const posts: string[] = [];
  guest.on('request', (r) => {
    if (r.isNavigationRequest() && r.method() === 'POST') posts.push(r.url());
  });
  const plain = guest.locator('masthead-booking');
  const again = async (name: string) => {
    await guest.reload();
    await expect(heading(guest, name)).toBeVisible();
  };

  await guest.goto(tenantUrl(HARBOUR, '/stay'));
  await checkA11y(guest);
  await plain.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await plain.getByLabel('Check-in').fill(day(BASE + 60));
  await plain.getByLabel('Check-out').fill(day(BASE + 62));
  await guest.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(guest, 'Who is coming?')).toBeVisible();
  await again('Who is coming?');
  await checkA11y(guest);
  await guest.getByRole('button', { name: 'Show rooms' }).click();
  await expect(heading(guest, 'Choose a room')).toBeVisible();
  await again('Choose a room');
  await checkA11y(guest);
  await guest.getByRole('radio', { name: /Standard Double/ }).check();
  await guest.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(guest, 'Your details')).toBeVisible();
  await again('Your details');
  await checkA11y(guest);

  // Details are posted, then shown by a GET: reload and Back repeat no POST.
  await plain.getByLabel('First name').fill('Mary');
  await plain.getByLabel('Last name').fill('Somerville');
  await plain.getByLabel('E-mail').fill(`mary.${Date.now()}@example.com`);
  await guest.getByRole('button', { name: 'Review' }).click();
  await expect(heading(guest, 'Check and book')).toBeVisible();
  expect(posts).toHaveLength(1);
  expect(guest.url()).toContain('step=review');
  await again('Check and book');
  await expect(plain.locator('.summary')).toContainText('Somerville');
  await checkA11y(guest);
  await guest.goBack();
  await expect(heading(guest, 'Your details')).toBeVisible();
  await expect(plain.getByLabel('First name')).toHaveValue('Mary');
  await guest.goForward();
  await expect(heading(guest, 'Check and book')).toBeVisible();
  expect(posts).toHaveLength(1);

  // Booked: the manage page, then reload and Back book nothing more.
  const before = await writes(request);
  await guest.getByRole('button', { name: 'Book' }).click();
  await expect(guest).toHaveURL(/\/stay\/manage\/[\w-]+\.[\w-]+\?mailed=1$/);
  await expect(heading(guest, 'Request received')).toBeVisible();
  expect(await writes(request)).toBe(before + 1);
  await again('Request received');
  await checkA11y(guest);
  // Back to the review: its confirmation, never its Book button again.
  await guest.goBack();
  await expect(heading(guest, 'Request received')).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Book' })).toHaveCount(0);
  await guest.goForward();
  await expect(heading(guest, 'Request received')).toBeVisible();
  expect(await writes(request)).toBe(before + 1);

  // Cancelled, then reload and Back: one cancellation upstream, the page says cancelled.
  await guest.getByRole('link', { name: 'Cancel this booking' }).click();
  await guest.getByRole('button', { name: 'Yes, cancel the booking' }).click();
  await expect(guest.getByText('Your booking is cancelled.')).toBeVisible();
  const cancelled = await writes(request);
  await again('Booking cancelled');
  await guest.goBack();
  await expect(heading(guest, 'Booking cancelled')).toBeVisible();
  await checkA11y(guest);
  expect(await writes(request)).toBe(cancelled);
  expect(posts).toHaveLength(3);
  await context.close();
});

test('with cookies blocked and no JavaScript, the review shows what was typed and Book books it', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  // A browser that keeps no cookie for the site: none is ever stored, so none is sent back (the
  // route's own fetch shares the context's cookies, and a redirect is followed past the route:
  // they are cleared before and after each request).
  await context.route('**/*', async (route) => {
    await context.clearCookies();
    const response = await route.fetch({ maxRedirects: 0 });
    await context.clearCookies();
    const headers = { ...response.headers() };
    delete headers['set-cookie'];
    await route.fulfill({ response, headers });
  });
  const guest = await context.newPage();
  const email = `nocookie.${Date.now()}@example.com`;
  // By path on 127.0.0.1: the route above fetches each request itself (no `*.localhost` there).
  const search = `property=${HARBOUR_VIEW}&checkIn=${day(BASE + 70)}&checkOut=${day(BASE + 72)}`;
  await guest.goto(
    `http://127.0.0.1:${E2E_PORT}/${HARBOUR}/stay?${search}&adults=2&children=0&step=rooms`,
  );
  await guest.getByRole('radio', { name: /Standard Double/ }).check();
  await guest.getByRole('button', { name: 'Continue' }).click();
  await guest.getByLabel('First name').fill('Rosalind');
  await guest.getByLabel('Last name').fill('Franklin');
  await guest.getByLabel('E-mail').fill(email);
  await guest.getByRole('button', { name: 'Review' }).click();
  await expect(heading(guest, 'Check and book')).toBeVisible();
  await expect(guest.locator('.summary')).toContainText('Franklin');
  await expect(guest.locator('.summary')).toContainText(email);

  const before = await writes(request);
  await guest.getByRole('button', { name: 'Book' }).click();
  await expect(heading(guest, 'Request received')).toBeVisible();
  expect(await writes(request)).toBe(before + 1);
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.close();
});
