import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

/**
 * Back after Book, on the site's /stay and in the embed on a partner page (tests/e2e/partner/server.mjs,
 * 4322 in harbour-times' allowedEmbedOrigins), with and without the widget's script: the guest sees
 * the confirmation, never the review with its Book button again.
 */
const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const SITE = tenantUrl(HARBOUR, '').replace(/\/$/, '');
const PARTNER = 'http://127.0.0.1:4322';

for (const [where, offset] of [
  ['on the site', 0],
  ['in the embed', 10],
] as const) {
  for (const script of [true, false]) {
    test(`${where}, ${script ? 'with' : 'without'} JavaScript: Back after Book shows the confirmation, not the Book button`, async ({
      browser,
    }) => {
      const context = await browser.newContext();
      // The widget's script never arrives: its plain forms (the embed's loader is not under _astro).
      if (!script) await context.route('**/_astro/**/*.js', (route) => route.abort());
      const page: Page = await context.newPage();
      const checkIn = day(470 + offset + (script ? 0 : 4));
      const checkOut = day(472 + offset + (script ? 0 : 4));
      let widget: Page | FrameLocator = page;
      if (where === 'on the site') {
        const search = new URLSearchParams({
          property: HARBOUR_VIEW,
          checkIn,
          checkOut,
          adults: '2',
          children: '0',
          step: 'rooms',
        });
        await page.goto(tenantUrl(HARBOUR, `/stay?${search}`));
      } else {
        const tag = {
          site: SITE,
          property: HARBOUR_VIEW,
          'check-in': checkIn,
          'check-out': checkOut,
        };
        await page.goto(`${PARTNER}/?${new URLSearchParams(tag)}`);
        widget = page.frameLocator('iframe');
        await widget.getByRole('button', { name: 'Continue' }).click();
        await widget.getByRole('button', { name: 'Show rooms' }).click();
      }
      await widget.getByRole('radio', { name: /Standard Double/ }).check();
      await widget.getByRole('button', { name: 'Continue' }).click();
      await widget.getByLabel('First name').fill('Ada');
      await widget.getByLabel('Last name').fill('Lovelace');
      await widget.getByLabel('E-mail').fill(`back.${Date.now()}@example.com`);
      await widget.getByRole('button', { name: 'Review' }).click();
      await expect(widget.getByRole('heading', { name: 'Check and book' })).toBeVisible();
      await widget.getByRole('button', { name: 'Book' }).click();
      const booked = widget.getByRole('heading', { name: 'Request received' });
      await expect(booked).toBeVisible();

      // The tab's Back (the embed's steps are its frame's history entries).
      await page.evaluate(() => history.back());
      await expect(booked).toBeVisible();
      await expect(widget.getByRole('button', { name: 'Book' })).toHaveCount(0);
      await context.close();
    });
  }
}
