import { expect, test, type Page } from '@playwright/test';
import { THIRD_TOKEN } from '../fixtures/third-api.ts';
import { checkA11y, watchErrors } from '../e2e/helpers.ts';
import { bookAsGrace, day, plain } from './booking-steps.ts';

/**
 * Reading and booking on a site whose APIs are shaped like neither mock dialect: other paths, field
 * names and envelopes (tests/fixtures/third-api.ts), read through the profile the doctor wrote.
 */

const LODGING = 'http://127.0.0.1:4810/lodging/api/v1';

/** The booking as the third API holds it (`locator`, `booking_status`, `grand_total`). */
async function upstreamBooking(page: Page, reference: string) {
  const response = await page.request.get(`${LODGING}/bookings`, {
    headers: { Authorization: `Bearer ${THIRD_TOKEN}` },
  });
  const body = (await response.json()) as {
    results: { locator: string; guest_ref: string; grand_total: string; arrival: string }[];
  };
  return body.results.find((booking) => booking.locator === reference);
}

test('the reading journey: front page, story, section, plans, e-paper, stream and search', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await expect(
    page.getByRole('link', { name: 'Third story 1', exact: true }).first(),
  ).toBeVisible();
  // Section blocks from /sections, the live band from /broadcasts, the edition from /editions.
  await expect(page.locator('[data-section]')).toHaveCount(2);
  await expect(page.locator('[data-live-band="live"]')).toContainText('Council live');
  await checkA11y(page);

  await page.getByRole('link', { name: 'Third story 1', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Third story 1');
  await expect(page.getByText('Body of story 1.')).toBeVisible();
  await expect(page.getByText('Third Writer').first()).toBeVisible();

  await page.goto('/categories/harbour');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Harbour');
  await expect(page.getByRole('link', { name: 'Third story 1', exact: true })).toBeVisible();

  await page.goto('/plans');
  const plans = plain(await page.locator('main').innerText());
  for (const expected of ['Digital', '€9.90', 'Annual', '€99.00'])
    expect(plans).toContain(expected);

  // A date-only issue date stays that day in New York.
  await page.goto('/epaper');
  await expect(page.getByText('November 22, 2026').first()).toBeVisible();

  await page.goto('/streams/council');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Council live');

  await page.goto('/search?q=story');
  await expect(page.locator('ol.results > li').first()).toBeVisible();
  await expect(page.locator('ol.results mark').first()).toHaveText(/story/i);
  expect(errors()).toEqual([]);
});

test('a new guest books with JavaScript: the API’s total, its reference, a manage link', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/stay');
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Check-in').first().fill(day(40));
  await page.getByLabel('Check-out').first().fill(day(42));
  await page.getByRole('button', { name: 'Continue' }).first().click();
  await expect(page.getByRole('heading', { name: 'Who is coming?' })).toBeFocused();
  await page.getByLabel('Adults').first().fill('2');
  await page.getByLabel('Children').first().fill('0');
  await page.getByRole('button', { name: 'Show rooms' }).first().click();
  await expect(page.getByRole('heading', { name: 'Choose a room' })).toBeFocused();
  expect(plain(await page.locator('.room').first().innerText())).toContain('€240.00 total');
  await page.getByRole('radio', { name: /Sea double/ }).check();
  await page.getByRole('button', { name: 'Continue' }).first().click();
  await expect(page.getByRole('heading', { name: 'Your details' })).toBeFocused();
  const email = `ada.${Date.now()}@third.test`;
  await page.getByLabel('First name').first().fill('Ada');
  await page.getByLabel('Last name').first().fill('Lovelace');
  await page.getByLabel('E-mail').first().fill(email);
  await page.getByRole('button', { name: 'Review' }).first().click();
  await expect(page.getByRole('heading', { name: 'Check and book' })).toBeFocused();
  await page.getByRole('button', { name: 'Book' }).first().click();

  const summary = page.locator('[data-confirmation]');
  await expect(summary).toContainText(/TH-\d+/);
  const confirmation = plain(await summary.innerText());
  expect(confirmation).toContain('Quay Rooms');
  expect(confirmation).toContain('€240.00');
  const reference = /TH-\d+/.exec(confirmation)?.[0] ?? '';
  const held = await upstreamBooking(page, reference);
  expect(held).toMatchObject({ arrival: day(40), grand_total: '240.00' });
  await checkA11y(page);

  // This API's status word (`held`) is not one Masthead knows: the manage page shows it without a
  // cancel (never taken for confirmed), so the link offers to see the booking only.
  const href = await page
    .getByRole('link', { name: /See this booking later/ })
    .getAttribute('href');
  await page.goto(new URL(href!, page.url()).href);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
  expect(errors()).toEqual([]);
});

test('a returning guest books without JavaScript, under the record the API already has', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const guest = await context.newPage();
  // Grace Hopper is on file at the API (`given_name`, `family_name`, `email_address`).
  const managed = await bookAsGrace(guest, 'grace@third.test');
  const reference = /TH-\d+/.exec(managed)?.[0] ?? '';
  expect(reference, managed).not.toBe('');
  expect(managed).toContain('€120.00');
  const held = await upstreamBooking(guest, reference);
  expect(held).toMatchObject({ arrival: day(50), grand_total: '120.00' });
  // Not a second record of Grace's: her request goes under the tenant's online-requests record.
  expect(held?.guest_ref).not.toBe('6f1c1a52-3a55-4e0e-9d7b-3c2a51f00010');
  await context.close();
});
