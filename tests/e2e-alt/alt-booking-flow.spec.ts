import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { checkA11y, watchErrors } from '../e2e/helpers.ts';

/**
 * A guest's booking, in the browser, against the alt dialect (docs/api-assumptions.md, "Dialects"):
 * Harbour View charges GBP, weekend nights cost more, a new booking is `tentative`. Every price and
 * status expected here is read from the alt mock itself, then looked for on the page.
 */

const PORT = 4600;
const CONTROL = 'http://127.0.0.1:4609';
const LODGING = 'http://127.0.0.1:4620/api/v1';
const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
/** Chromium resolves `*.localhost`; Node (the request fixture) does not, so it uses 127.0.0.1. */
const byHost = (path: string) => `http://${HARBOUR}.localhost:${PORT}${path}`;
const byPath = (path: string) => `http://127.0.0.1:${PORT}/${HARBOUR}${path}`;

interface Tenants {
  tenants: { id: string; locale: string }[];
}
interface DemoAccounts {
  lodging: Record<string, { fullToken: string; propertyIds: string[] }>;
}
const LOCALE =
  (JSON.parse(readFileSync('tenants.json', 'utf8')) as Tenants).tenants.find(
    (t) => t.id === HARBOUR,
  )?.locale ?? '';
const TOKEN =
  Object.values(
    (JSON.parse(readFileSync('mock/demo-accounts.json', 'utf8')) as DemoAccounts).lodging,
  ).find((a) => a.propertyIds.includes(HARBOUR_VIEW))?.fullToken ?? '';
const upstream = { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' };

/** Amounts as the tenant's locale writes them; spaces normalised (some locales use U+202F). */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const money = (amount: number, currency: string) =>
  plain(new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).format(amount));

/** The Thursday at least `days` from today (UTC): Thu–Sun includes the dearer Friday and Saturday. */
function thursdayAfter(days: number): [string, string] {
  const start = new Date(Date.now() + days * 86_400_000);
  start.setUTCDate(start.getUTCDate() + ((4 - start.getUTCDay() + 7) % 7));
  const end = new Date(start.getTime() + 3 * 86_400_000);
  return [start.toISOString().slice(0, 10), end.toISOString().slice(0, 10)];
}

/** The alt availability answer (bare, `currency_code`, `nightly_rates`, `units_available` as a string). */
interface AltAvailability {
  currency_code: string;
  period: { nights: number };
  rooms: {
    name: string;
    capacity: { total: number };
    units_available: string;
    nightly_rates: { date: string; rate: number }[];
    total: number;
  }[];
}

async function upstreamOffers(request: APIRequestContext, checkIn: string, checkOut: string) {
  const query = new URLSearchParams({ check_in: checkIn, check_out: checkOut, guests: '2' });
  const response = await request.get(
    `${LODGING}/properties/${HARBOUR_VIEW}/availability?${query}`,
    { headers: upstream },
  );
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as AltAvailability;
  // The premise of this file: the mock speaks alt (else these are the default dialect's checks).
  expect(body.currency_code).toBe('GBP');
  const bookable = body.rooms.filter((r) => Number(r.units_available) > 0 && r.capacity.total >= 2);
  expect(bookable.length, 'rooms free for two').toBeGreaterThan(1);
  return { currency: body.currency_code, nights: body.period.nights, rooms: bookable };
}

/** The booking as the alt API holds it (the raw Laravel paginator, `confirmation_code`). */
async function upstreamBooking(request: APIRequestContext, checkIn: string, reference: string) {
  const query = new URLSearchParams({
    property_id: HARBOUR_VIEW,
    check_in_from: checkIn,
    check_in_to: checkIn,
    per_page: '50',
  });
  const response = await request.get(`${LODGING}/bookings?${query}`, { headers: upstream });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as {
    data: {
      confirmation_code: string;
      status: string;
      total_amount: number;
      currency_code: string;
    }[];
  };
  const booking = body.data.find((b) => b.confirmation_code === reference);
  expect(booking, `booking ${reference} upstream`).toBeTruthy();
  return booking!;
}

async function bookingsCreated(request: APIRequestContext): Promise<number> {
  const stats = (await (await request.get(`${CONTROL}/stats`)).json()) as {
    lodging: { routes: Record<string, number> };
  };
  return stats.lodging.routes['POST /bookings'] ?? 0;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name });
const text = async (locator: Locator) => plain(await locator.innerText());

/** The price a room card shows per night: the rate when every night costs the same, else the average. */
function perNight(rates: number[], total: number, currency: string): RegExp {
  const same = rates.every((rate) => rate === rates[0]);
  const amount = money(same ? rates[0]! : Math.round((total / rates.length) * 100) / 100, currency);
  const escaped = amount.replace(/[.$]/g, '\\$&');
  return new RegExp(
    same ? `${escaped} per night(?! on average)` : `${escaped} per night on average`,
  );
}

test.beforeAll(async ({ request }) => {
  expect((await request.post(`${CONTROL}/reset`)).ok()).toBe(true);
});

test('with JavaScript: GBP room cards, the API’s total, "request received", and a working manage link', async ({
  page,
  request,
}) => {
  // Five axe checks and a booking: near 30 s on a busy machine (npm test runs two suites at once).
  test.slow();
  const errors = watchErrors(page);
  const [checkIn, checkOut] = thursdayAfter(260);
  const offers = await upstreamOffers(request, checkIn, checkOut);
  const double = offers.rooms.find((r) => r.name === 'Standard Double');
  expect(double, 'Standard Double free').toBeTruthy();
  // Thursday to Sunday in alt: the weekend nights differ, so "per night" can only be an average.
  expect(new Set(double!.nightly_rates.map((n) => n.rate)).size).toBeGreaterThan(1);

  await page.goto(byHost('/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await checkA11y(page);
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(checkIn);
  await page.getByLabel('Check-out').fill(checkOut);
  await expect(page.getByText(`${offers.nights} nights`)).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(heading(page, 'Who is coming?')).toBeFocused();
  await page.getByLabel('Adults').fill('2');
  await page.getByLabel('Children').fill('0');
  await checkA11y(page);
  await page.getByRole('button', { name: 'Show rooms' }).click();

  // Every room free for two shows the API's currency and total, in the tenant's locale.
  await expect(heading(page, 'Choose a room')).toBeFocused();
  for (const room of offers.rooms) {
    const card = page.locator('.room').filter({ has: page.getByText(room.name, { exact: true }) });
    const facts = await text(card.locator('.room-facts'));
    expect(facts).toContain(`${money(room.total, offers.currency)} total`);
    expect(facts).toMatch(
      perNight(
        room.nightly_rates.map((n) => n.rate),
        room.total,
        offers.currency,
      ),
    );
    expect(facts).not.toContain('€');
  }
  await checkA11y(page);
  await page.getByRole('radio', { name: /Standard Double/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(heading(page, 'Your details')).toBeFocused();
  await page.getByLabel('First name').fill('Alma');
  await page.getByLabel('Last name').fill('Alternative');
  await page.getByLabel('E-mail').fill(`alma.flow.${Date.now()}@example.com`);
  // The alt API refuses a guest without a phone number.
  await page.getByLabel('Phone (optional)').fill('+44 20 7946 0958');
  await checkA11y(page);
  await page.getByRole('button', { name: 'Review' }).click();

  await expect(heading(page, 'Check and book')).toBeFocused();
  const total = money(double!.total, offers.currency);
  expect(await text(page.locator('[data-review]'))).toContain(total);
  await checkA11y(page);
  const before = await bookingsCreated(request);
  await page.getByRole('button', { name: 'Book' }).click();

  // `tentative` is a request, not a confirmed booking.
  await expect(heading(page, 'Request received')).toBeFocused();
  await expect(page.getByText('The hotel will confirm your booking.')).toBeVisible();
  await expect(page.getByText('Booking confirmed')).toHaveCount(0);
  const summary = page.locator('[data-confirmation]');
  await expect(summary).toContainText('Requested: the hotel will confirm');
  const confirmation = await text(summary);
  expect(confirmation).toContain('Harbour View Hotel');
  expect(confirmation).toContain('Standard Double');
  expect(confirmation).toContain(total);
  const reference = /BK-[A-Z0-9]{6}/.exec(confirmation)?.[0] ?? '';
  expect(reference, confirmation).not.toBe('');
  await checkA11y(page);
  expect(await bookingsCreated(request)).toBe(before + 1);
  const held = await upstreamBooking(request, checkIn, reference);
  expect(held.status).toBe('tentative');
  expect(held.currency_code).toBe('GBP');
  expect(held.total_amount).toBe(double!.total);

  // The private link opens the same booking, in the same words.
  const href = await page
    .getByRole('link', { name: /See or cancel this booking/ })
    .getAttribute('href');
  expect(href).toMatch(/\/stay\/manage\/[\w-]+\.[\w-]+$/);
  const manage = await page.goto(new URL(href!, page.url()).href);
  expect(manage?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
  await expect(heading(page, 'Request received')).toBeVisible();
  await expect(page.getByText('Booking confirmed')).toHaveCount(0);
  const managed = await text(page.locator('.summary'));
  for (const expected of [reference, 'Requested: the hotel will confirm', 'Standard Double', total])
    expect(managed).toContain(expected);
  await expect(page.getByRole('link', { name: 'Cancel this booking' })).toBeVisible();
  await checkA11y(page);
  expect(errors()).toEqual([]);
});

test('without JavaScript: plain forms book once in GBP and land on the manage page', async ({
  browser,
  page,
  request,
}) => {
  const [checkIn, checkOut] = thursdayAfter(290);
  const offers = await upstreamOffers(request, checkIn, checkOut);
  const suite = offers.rooms.find((r) => r.name === 'Sea View Suite');
  expect(suite, 'Sea View Suite free').toBeTruthy();
  const total = money(suite!.total, offers.currency);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const guest = await context.newPage();
  const errors = watchErrors(guest);
  const form = guest.locator('masthead-booking');
  await guest.goto(byPath('/stay'));
  await expect(heading(guest, 'When would you like to stay?')).toBeVisible();
  await form.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await form.getByLabel('Check-in').fill(checkIn);
  await form.getByLabel('Check-out').fill(checkOut);
  await guest.getByRole('button', { name: 'Continue' }).click();

  await expect(heading(guest, 'Who is coming?')).toBeVisible();
  await form.getByLabel('Adults').fill('2');
  await form.getByLabel('Children').fill('0');
  await guest.getByRole('button', { name: 'Show rooms' }).click();

  await expect(heading(guest, 'Choose a room')).toBeVisible();
  const option = await text(form.locator('.room').filter({ hasText: 'Sea View Suite' }));
  expect(option).toContain(`${total} total`);
  expect(option).toMatch(
    perNight(
      suite!.nightly_rates.map((n) => n.rate),
      suite!.total,
      offers.currency,
    ),
  );
  await guest.getByRole('radio', { name: /Sea View Suite/ }).check();
  await guest.getByRole('button', { name: 'Continue' }).click();

  await expect(heading(guest, 'Your details')).toBeVisible();
  await form.getByLabel('First name').fill('Nora');
  await form.getByLabel('Last name').fill('Noscript');
  await form.getByLabel('E-mail').fill(`nora.${Date.now()}@example.com`);
  await form.getByLabel('Phone (optional)').fill('+44 20 7946 0000');
  await guest.getByRole('button', { name: 'Review' }).click();

  await expect(heading(guest, 'Check and book')).toBeVisible();
  expect(await text(form.locator('.summary'))).toContain(total);
  const before = await bookingsCreated(request);
  await guest.getByRole('button', { name: 'Book' }).click();

  await expect(guest).toHaveURL(/\/harbour-times\/stay\/manage\/[\w-]+\.[\w-]+$/);
  await expect(heading(guest, 'Request received')).toBeVisible();
  await expect(guest.getByText('Booking confirmed')).toHaveCount(0);
  const managed = await text(guest.locator('.summary'));
  const reference = /BK-[A-Z0-9]{6}/.exec(managed)?.[0] ?? '';
  expect(reference, managed).not.toBe('');
  for (const expected of ['Requested: the hotel will confirm', 'Sea View Suite', total])
    expect(managed).toContain(expected);
  expect(await bookingsCreated(request)).toBe(before + 1);
  const held = await upstreamBooking(request, checkIn, reference);
  expect(held.status).toBe('tentative');
  expect(held.total_amount).toBe(suite!.total);
  expect(errors()).toEqual([]);

  // axe needs scripts: the same manage page, checked in the page with JavaScript.
  const manageUrl = guest.url();
  await context.close();
  await page.goto(manageUrl);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
  await checkA11y(page);
});
