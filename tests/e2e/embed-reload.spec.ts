import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

// The one-tag embed on a partner page (tests/e2e/partner/server.mjs on 4322, in harbour-times'
// allowedEmbedOrigins), reloaded mid-booking.
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const PARTNER = 'http://127.0.0.1:4322';
const SITE = tenantUrl('harbour-times', '').replace(/\/$/, '');
const partnerPage = (attributes: Record<string, string>) =>
  `${PARTNER}/?${new URLSearchParams({ site: SITE, ...attributes })}`;

// Playwright's Chromium starts with ThirdPartyStoragePartitioning in its --disable-features, which
// denies a partner page's frame any storage; Chrome (like Firefox and Safari) partitions it instead.
// A --disable-features of our own replaces that list (the last switch wins).
const executablePath =
  process.env['CHROMIUM_PATH'] ??
  (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
test.use({
  launchOptions: {
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-features=Translate'],
  },
});

test('the partner page reloaded: the embed comes back on its step with what was typed, never on a confirmation', async ({
  page,
}) => {
  await page.goto(
    partnerPage({
      property: HARBOUR_VIEW,
      'check-in': day(270),
      'check-out': day(272),
    }),
  );
  const frame = page.frameLocator('iframe');
  const confirmations = () => page.evaluate(() => (window as { confirmations?: [] }).confirmations);
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('button', { name: 'Show rooms' }).click();
  await frame.getByRole('radio', { name: /Standard Double/ }).check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByLabel('First name').fill('Zoë 🌊');
  await frame.getByLabel('Last name').fill('Reload');
  await page.reload();
  await expect(frame.getByRole('heading', { name: 'Your details' })).toBeVisible();
  await expect(frame.getByLabel('First name')).toHaveValue('Zoë 🌊');
  await expect(frame.getByLabel('Last name')).toHaveValue('Reload');

  await frame.getByLabel('E-mail').fill(`reload.${Date.now()}@example.com`);
  await frame.getByRole('button', { name: 'Review' }).click();
  await expect(frame.getByRole('heading', { name: 'Check and book' })).toBeVisible();
  await page.reload();
  await expect(frame.getByRole('heading', { name: 'Check and book' })).toBeVisible();
  await expect(frame.getByText('Zoë 🌊 Reload')).toBeVisible();
  await frame.getByRole('button', { name: 'Book' }).click();
  await expect(frame.locator('[data-booked]')).toBeVisible();
  await expect.poll(confirmations).toHaveLength(1);
  // After the confirmation a reload starts a new booking: the partner hears of none again.
  await page.reload();
  await expect(frame.getByLabel('Check-in')).toHaveValue(day(270));
  expect(await confirmations()).toEqual([]);
});
