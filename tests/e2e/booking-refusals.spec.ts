import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { raw } from './raw-http.ts';
import { E2E_PORT, tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

// Refusals that say what to do instead (issue 34) and mailed links that cannot be pointed elsewhere
// (issue 33): with and without JavaScript, and a second browser booking the same stay.
const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const DUNE = 'a06218e9-2a16-55fd-a201-69b7dcb570ce';
const INBOX = `http://127.0.0.1:${process.env['E2E_MAIL_HTTP_PORT'] ?? 4326}/messages`;
const PARTNER = `http://127.0.0.1:${process.env['E2E_PARTNER_PORT'] ?? 4322}`;
const BASE = 700;
const SHOTS = process.env['SHOTS_DIR'];

/** With SHOTS_DIR set, a full-page screenshot named by step and width (to look at, not compared). */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
}

interface Mail {
  to: string;
  subject: string;
  text: string;
}

async function inbox(request: APIRequestContext, to: string): Promise<Mail[]> {
  const all = (await (await request.get(INBOX)).json()) as Mail[];
  return all.filter((mail) => mail.to.includes(to));
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name });

/** Dates, guests, room and details, up to the review (works with and without JavaScript). */
async function toReview(
  page: Page,
  stay: { checkIn: string; checkOut: string },
  guest: { first: string; email: string },
) {
  await page.goto(tenantUrl(HARBOUR, '/stay'));
  await page.getByLabel('Place to stay').selectOption(HARBOUR_VIEW);
  await page.getByLabel('Check-in').fill(stay.checkIn);
  await page.getByLabel('Check-out').fill(stay.checkOut);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(heading(page, 'Who is coming?')).toBeVisible();
  await page.getByLabel('Adults').fill('2');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await page.getByRole('radio', { name: /Standard Double/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('First name').fill(guest.first);
  await page.getByLabel('Last name').fill('Guest');
  await page.getByLabel('E-mail').fill(guest.email);
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(heading(page, 'Check and book')).toBeVisible();
}

/** Another browser (no cookies shared); without JavaScript it is a phone, 390 px wide. */
async function secondBrowser(browser: Browser, javaScriptEnabled: boolean) {
  const viewport = javaScriptEnabled ? { width: 1280, height: 720 } : { width: 390, height: 844 };
  const context = await browser.newContext({ javaScriptEnabled, viewport });
  return { context, page: await context.newPage() };
}

for (const javaScriptEnabled of [true, false]) {
  test(`two browsers, one stay: the second books nothing unless it chooses another room (second ${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async ({
    page,
    browser,
    request,
  }) => {
    const stay = {
      checkIn: day(BASE + (javaScriptEnabled ? 0 : 10)),
      checkOut: day(BASE + (javaScriptEnabled ? 2 : 12)),
    };
    const email = `twice.${javaScriptEnabled}.${Date.now()}@example.com`;
    const second = await secondBrowser(browser, javaScriptEnabled);
    // Both are at the review; the first books; the second (another name, same e-mail) presses Book.
    await toReview(page, stay, { first: 'Ada', email });
    await toReview(second.page, stay, { first: 'Augusta', email });
    await page.getByRole('button', { name: 'Book' }).click();
    await expect(page.locator('[data-confirmation]')).toContainText(/BK-[A-Z0-9]{6}/);
    const first = /BK-[A-Z0-9]{6}/.exec(await page.locator('[data-confirmation]').innerText())?.[0];
    await second.page.getByRole('button', { name: 'Book', exact: true }).click();

    const refusal = second.page.getByRole('alert').filter({ hasText: 'booked moments ago' });
    await expect(refusal).toBeVisible();
    // Nothing in it says "try again", and the review no longer offers "Book".
    await expect(second.page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(second.page.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
    const find = refusal.getByRole('link', { name: 'Find that booking' });
    await expect(find).toHaveAttribute('href', '/stay/manage');
    const another = refusal.getByRole('button', { name: 'Book another room for the same dates' });
    await expect(another).toBeVisible();
    await shoot(second.page, 'same-stay-refusal');

    // Reload and Back write nothing; 15 s later "Book" (were it offered) still books nothing.
    await second.page.reload();
    await expect(heading(second.page, 'Check and book')).toBeVisible();
    await second.page.goBack();
    await second.page.goForward();
    await expect.poll(async () => (await inbox(request, email)).length).toBe(1);

    // Chosen knowingly: a second booking, and its own confirmation.
    await second.page.reload();
    const bookAgain = second.page.getByRole('button', { name: 'Book', exact: true });
    if (await bookAgain.count()) {
      await bookAgain.click();
      await expect(
        second.page.getByRole('alert').filter({ hasText: 'booked moments ago' }),
      ).toBeVisible();
    }
    await second.page.getByRole('button', { name: 'Book another room for the same dates' }).click();
    // Its own confirmation: in place with JavaScript, on its manage page without.
    const booked = second.page.getByText(/BK-[A-Z0-9]{6}/).first();
    await expect(booked).toBeVisible();
    expect(/BK-[A-Z0-9]{6}/.exec(await booked.innerText())?.[0]).not.toBe(first);
    await expect.poll(async () => (await inbox(request, email)).length).toBe(2);
    await second.context.close();
  });
}

test('the guests step names the place; a party too big for it is offered the place that takes it, dates kept', async ({
  page,
}) => {
  const [checkIn, checkOut] = [day(BASE + 20), day(BASE + 22)];
  await page.goto(
    tenantUrl(
      HARBOUR,
      `/stay?property=${HARBOUR_VIEW}&checkIn=${checkIn}&checkOut=${checkOut}&step=guests`,
    ),
  );
  await expect(page.getByText('Staying at Harbour View Hotel, Port Haven')).toBeVisible();
  await page.getByLabel('Adults').fill('5');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await expect(page.getByText('Rooms at Harbour View Hotel take at most 2 adults.')).toBeVisible();
  const other = page.locator('[data-other-places]');
  await expect(other).toContainText('This place takes your party, for the same dates:');
  await other.getByRole('link', { name: 'Dune Cottages, Port Haven' }).click();
  await expect(heading(page, 'Choose a room')).toBeVisible();
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    property: DUNE,
    checkIn,
    checkOut,
    adults: '5',
  });
  await expect(page.getByRole('radio', { name: /Family Dune House/ })).toBeEnabled();
});

test('a link whose stay has passed opens the calendar at today’s month, without those dates', async ({
  page,
}) => {
  await page.goto(
    tenantUrl(HARBOUR, `/stay?property=${HARBOUR_VIEW}&checkIn=2024-02-10&nights=2&adults=2`),
  );
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await expect(page.locator('[data-stale-dates]')).toContainText('These dates have passed');
  await expect(page.getByLabel('Check-in')).toHaveValue('');
  const month = new Intl.DateTimeFormat('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/London',
  }).format(new Date());
  await expect(page.locator('.calendar caption').first()).toHaveText(month);
  // Today (in the tenant's time zone) can be picked.
  await expect(
    page.locator('.calendar td[data-day]:not([aria-disabled="true"])').first(),
  ).toBeVisible();
});

test('mail links name the tenant’s own host; a find-my-booking post with a forged Host and X-Forwarded-Host is refused', async ({
  page,
  request,
}) => {
  const email = `forged.${Date.now()}@example.com`;
  await toReview(
    page,
    { checkIn: day(BASE + 30), checkOut: day(BASE + 31) },
    { first: 'Fio', email },
  );
  await page.getByRole('button', { name: 'Book' }).click();
  const reference =
    /BK-[A-Z0-9]{6}/.exec(await page.locator('[data-confirmation]').innerText())?.[0] ?? '';
  await expect.poll(async () => (await inbox(request, email)).length).toBe(1);
  const confirmation = (await inbox(request, email))[0]!;
  expect(confirmation.text).toContain(`http://${HARBOUR}.localhost:${E2E_PORT}/stay/manage/`);

  const body = new URLSearchParams({ email, reference }).toString();
  const answer = await raw(
    E2E_PORT,
    {
      method: 'POST',
      path: `/${HARBOUR}/stay/manage?_action=findStay`,
      headers: {
        Host: 'evil.example',
        Origin: 'http://evil.example',
        'X-Forwarded-Host': 'evil.example',
        'X-Forwarded-Proto': 'http',
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': Buffer.byteLength(body),
      },
    },
    body,
  );
  // Not the tenant's host: refused before anything runs (no look-up, no mail).
  expect(answer.status).toBe(421);
  expect(answer.body).toContain('does not take posts sent to evil.example');
  // The same find on the site's own address mails the link, on the tenant's host.
  await page.goto(tenantUrl(HARBOUR, '/stay/manage'));
  await page.getByLabel('E-mail address used for the booking').fill(email);
  await page.getByLabel('Booking reference').fill(reference);
  await page.getByRole('button', { name: 'E-mail me the link' }).click();
  await expect.poll(async () => (await inbox(request, email)).length).toBe(2);
  const found = (await inbox(request, email))[1]!;
  expect(found.text).not.toContain('evil.example');
  expect(found.text).toContain(`http://${HARBOUR}.localhost:${E2E_PORT}/stay/manage/`);
});

test('find my booking: a refusal is answered with a redirect too, so a reload sends nothing again', async ({
  page,
}) => {
  await page.goto(tenantUrl(HARBOUR, '/stay/manage'));
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push(r.url());
  });
  await page.getByRole('button', { name: 'E-mail me the link' }).click();
  await expect(page.getByText('Enter the booking reference.')).toBeVisible();
  await expect(page).toHaveURL(/\/stay\/manage\?posted=[\w-]+$/);
  await page.reload();
  expect(posts).toHaveLength(1);
  // The hotel's phone and e-mail are links.
  await expect(page.getByRole('link', { name: '+44 20 7946 0000' })).toHaveAttribute(
    'href',
    'tel:+442079460000',
  );
  await expect(page.getByRole('link', { name: 'rooms@harbour-hotels.test' })).toHaveAttribute(
    'href',
    'mailto:rooms@harbour-hotels.test',
  );
});

test('the embed on a partner page without JavaScript is a link to the booking page with the tag’s stay', async ({
  browser,
}) => {
  const { context, page } = await secondBrowser(browser, false);
  const site = `http://${HARBOUR}.localhost:${E2E_PORT}`;
  await page.goto(
    `${PARTNER}/?site=${encodeURIComponent(site)}&property=${HARBOUR_VIEW}&check-in=${day(BASE + 40)}&adults=3`,
  );
  const link = page.getByRole('link', { name: 'Book at Harbour Times' });
  await link.click();
  await expect(page.getByRole('heading', { name: 'When would you like to stay?' })).toBeVisible();
  await expect(page.getByLabel('Check-in')).toHaveValue(day(BASE + 40));
  await context.close();
});
