import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { RANDOM_TENANT, RANDOM_TOKEN, type Words } from '../fixtures/random-api.ts';
import { checkA11y, watchErrors } from '../e2e/helpers.ts';
import { bookAsGrace, day, plain } from './booking-steps.ts';

/**
 * Reading and booking on a tenant whose APIs name every path and field with words made up on this
 * run (tests/fixtures/random-api.ts), read through the profiles `doctor --write` alone wrote in the
 * fork (tests/e2e-third/stack.ts): no hand edit. Same build and server as third.spec.ts.
 */

test.use({ baseURL: `http://${RANDOM_TENANT}.localhost:4800` });

const FORK = new URL('../../.cache/third-fork/', import.meta.url);
// Read when a test runs: the stack writes it on start, after Playwright has loaded this file.
const started = () =>
  JSON.parse(readFileSync(new URL('random-api.json', FORK), 'utf8')) as {
    lodgingUrl: string;
    words: Words;
  };
const w = (meaning: string) => started().words[meaning]!;

type Rec = Record<string, unknown>;

/** A list of the random API as it holds it, under its made-up path and envelope. */
async function upstream(page: Page, meaning: string, query = ''): Promise<Rec[]> {
  const response = await page.request.get(`${started().lodgingUrl}/${w(meaning)}${query}`, {
    headers: { Authorization: `Bearer ${RANDOM_TOKEN}` },
  });
  return ((await response.json()) as Rec)[w('list')] as Rec[];
}

async function upstreamBooking(page: Page, reference: string) {
  const booking = (await upstream(page, 'bookings')).find((b) => b[w('ref')] === reference);
  return (
    booking && {
      arrival: booking[w('arrive')],
      total: booking[w('amount')],
      guest: booking[w('guestRef')],
    }
  );
}

test('the doctor wrote the profiles from this run’s made-up words', () => {
  const profile = (service: string) =>
    readFileSync(new URL(`profiles/${RANDOM_TENANT}-${service}.json`, FORK), 'utf8');
  expect(profile('publishing')).toContain(`"/${w('posts')}`);
  expect(profile('lodging')).toContain(`"/${w('bookings')}`);
  const tenants = JSON.parse(readFileSync(new URL('tenants.json', FORK), 'utf8')) as {
    tenants: { id: string; publishing: { profile?: string }; lodging?: { profile?: string } }[];
  };
  const tenant = tenants.tenants.find((t) => t.id === RANDOM_TENANT);
  expect([tenant?.publishing.profile, tenant?.lodging?.profile]).toEqual([
    `${RANDOM_TENANT}-publishing`,
    `${RANDOM_TENANT}-lodging`,
  ]);
});

test('the reading pages: front page, story, category, e-paper and streams', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await expect(
    page.getByRole('link', { name: 'Random story 1', exact: true }).first(),
  ).toBeVisible();
  await expect(page.locator('[data-live-band="live"]')).toContainText('Council live');
  await checkA11y(page);

  await page.getByRole('link', { name: 'Random story 1', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Random story 1');
  await expect(page.getByText('Body of Random story 1.')).toBeVisible();
  await expect(page.getByText('Rand Writer').first()).toBeVisible();

  await page.goto('/categories/harbour');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Harbour');
  await expect(page.getByRole('link', { name: 'Random story 1', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Random story 2', exact: true })).toHaveCount(0);

  await page.goto('/epaper');
  await expect(page.getByText('Morning edition').first()).toBeVisible();
  await expect(page.getByText('November 22, 2026').first()).toBeVisible();

  await page.goto('/streams');
  await expect(page.getByText('Council live').first()).toBeVisible();
  await page.goto('/streams/council');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Council live');
  expect(errors()).toEqual([]);
});

test('a new guest books with JavaScript: the API’s total and reference', async ({ page }) => {
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
  await page.getByLabel('First name').first().fill('Ada');
  await page.getByLabel('Last name').first().fill('Lovelace');
  await page.getByLabel('E-mail').first().fill(`ada.${Date.now()}@r.test`);
  await page.getByRole('button', { name: 'Review' }).first().click();
  await expect(page.getByRole('heading', { name: 'Check and book' })).toBeFocused();
  await page.getByRole('button', { name: 'Book' }).first().click();

  const summary = page.locator('[data-confirmation]');
  await expect(summary).toContainText(/RX-\d+/);
  const confirmation = plain(await summary.innerText());
  expect(confirmation).toContain('Quay Rooms');
  expect(confirmation).toContain('€240.00');
  const reference = /RX-\d+/.exec(confirmation)?.[0] ?? '';
  expect(await upstreamBooking(page, reference)).toMatchObject({
    arrival: day(40),
    total: '240.00',
  });
  expect(errors()).toEqual([]);
});

test('a returning guest books without JavaScript, under the record the API already has', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const guest = await context.newPage();
  const grace = await upstream(guest, 'guests', '?search=grace@r.test');
  expect(grace).toHaveLength(1);
  const managed = await bookAsGrace(guest, 'grace@r.test');
  const reference = /RX-\d+/.exec(managed)?.[0] ?? '';
  expect(reference, managed).not.toBe('');
  expect(managed).toContain('€120.00');
  const held = await upstreamBooking(guest, reference);
  expect(held).toMatchObject({ arrival: day(50), total: '120.00' });
  // Found, not copied: still one Grace at the API, and the request not booked onto her record.
  expect(await upstream(guest, 'guests', '?search=grace@r.test')).toHaveLength(1);
  expect(held?.guest).not.toBe(grace[0]![w('id')]);
  await context.close();
});
