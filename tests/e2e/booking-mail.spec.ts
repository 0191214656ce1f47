import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { checkA11y, tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

// The guest's loop: the confirmation e-mail and "find my booking", with the e2e site's mail going
// to the sink tests/e2e/mail/server.mjs (SMTP 4325, its inbox as JSON on 4326).
const INBOX = 'http://127.0.0.1:4326/messages';
const BASE = 600;

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

async function inbox(request: APIRequestContext, to: string): Promise<Mail[]> {
  const all = (await (await request.get(INBOX)).json()) as Mail[];
  return all.filter((mail) => mail.to.includes(to));
}

/** The only e-mail to `to`, once it has arrived. */
async function mailTo(request: APIRequestContext, to: string): Promise<Mail> {
  await expect.poll(async () => (await inbox(request, to)).length).toBe(1);
  return (await inbox(request, to))[0]!;
}

const linkIn = (mail: Mail): string =>
  /https?:\/\/\S+\/stay\/manage\/[\w-]+\.[\w-]+/.exec(mail.text)?.[0] ?? '';

async function bookAlpine(page: Page, email: string, offset: number): Promise<string> {
  await page.goto(tenantUrl('alpine-post', '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Anreise').fill(day(BASE + offset));
  await page.getByLabel('Abreise').fill(day(BASE + offset + 2));
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByLabel('Erwachsene').fill('2');
  await page.getByRole('button', { name: 'Zimmer anzeigen' }).click();
  await page.getByRole('radio', { name: /Alpine Double/ }).check();
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByLabel('Vorname').fill('Heidi');
  await page.getByLabel('Nachname').fill('Muster');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByRole('button', { name: 'Prüfen' }).click();
  await page.getByRole('button', { name: 'Buchen' }).click();
  await expect(page.getByRole('heading', { name: 'Anfrage erhalten' })).toBeFocused();
  return /BK-[A-Z0-9]{6}/.exec(await page.locator('[data-confirmation]').innerText())?.[0] ?? '';
}

test('the confirmation e-mail arrives once, in German for Alpine Post, and its link opens the booking', async ({
  page,
  request,
}) => {
  const email = `heidi.${Date.now()}@example.com`;
  const reference = await bookAlpine(page, email, 0);
  // The page says so only because it went out.
  await expect(page.getByText(`an ${email} gesendet`)).toBeVisible();
  const mail = await mailTo(request, email);
  expect(mail.subject).toBe(`Ihre Buchung ${reference}: Edelweiss Lodge`);
  expect(mail.text).toContain('Guten Tag Heidi Muster');
  expect(mail.text).toContain('Wenden Sie sich an das Hotel: +41 33 555 01 23');
  expect(mail.html).toContain('<a href="http://alpine-post.localhost');

  // A reload of the confirmation sends nothing more.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Anfrage erhalten' })).toBeVisible();
  await page.goto(linkIn(mail));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
  await expect(page.getByRole('heading', { name: 'Anfrage erhalten' })).toBeVisible();
  expect(await inbox(request, email)).toHaveLength(1);
});

test('a booking posted twice with one key (a retry) sends one e-mail', async ({
  page,
  request,
}) => {
  await page.goto(tenantUrl('harbour-times', '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  const email = `retry.${Date.now()}@example.com`;
  const references = await page.evaluate(
    async ({ email, checkIn, checkOut }) => {
      const widget = document.querySelector('masthead-booking') as HTMLElement;
      const config = JSON.parse(widget.dataset['config'] ?? '{}') as {
        properties: { id: string; roomTypes: { id: string }[] }[];
      };
      const place = config.properties[0]!;
      const body = JSON.stringify({
        idempotencyKey: `mailretry${Date.now()}0123456789`,
        propertyId: place.id,
        roomTypeId: place.roomTypes[0]!.id,
        checkIn,
        checkOut,
        adults: 1,
        children: 0,
        firstName: 'Re',
        lastName: 'Try',
        email,
        phone: '',
        nationality: '',
        notes: '',
      });
      const post = () =>
        fetch(`${widget.dataset['endpoint']}/bookings`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        }).then((r) => r.json() as Promise<{ data: { reference: string; mailed: boolean } }>);
      const first = await post();
      const second = await post();
      return [first.data, second.data];
    },
    { email, checkIn: day(BASE + 10), checkOut: day(BASE + 11) },
  );
  expect(references[0]!.reference).toBe(references[1]!.reference);
  expect(references.map((r) => r.mailed)).toEqual([true, false]);
  await mailTo(request, email);
  expect(await inbox(request, email)).toHaveLength(1);
});

test('find my booking: one answer for a wrong reference, a wrong address and the right pair; the link goes only to the booking’s address', async ({
  page,
  request,
}) => {
  const email = `anna.${Date.now()}@example.com`;
  const reference = await bookAlpine(page, email, 20);
  await mailTo(request, email);

  const find = async (address: string, ref: string): Promise<string> => {
    await page.goto(tenantUrl('alpine-post', '/stay/manage'));
    await page.getByLabel('E-Mail-Adresse der Buchung').fill(address);
    await page.getByLabel('Buchungsnummer').fill(ref);
    await page.getByRole('button', { name: 'Link per E-Mail senden' }).click();
    await expect(page).toHaveURL(/\/stay\/manage\?sent=1$/);
    return page.locator('main').innerText();
  };
  await page.goto(tenantUrl('alpine-post', '/stay/manage'));
  await checkA11y(page);
  const wrongReference = await find(email, 'BK-ZZZZZZ');
  const wrongAddress = await find(`other.${email}`, reference);
  const right = await find(email, reference);
  expect(wrongReference).toBe(right);
  expect(wrongAddress).toBe(right);
  expect(right).toContain('ist ihr Link jetzt dorthin unterwegs');
  await checkA11y(page);

  // Only the right pair mails, and only to the booking's address.
  await expect.poll(async () => (await inbox(request, email)).length).toBe(2);
  expect(await inbox(request, `other.${email}`)).toEqual([]);
  const found = (await inbox(request, email))[1]!;
  expect(found.subject).toBe(`Der Link zu Ihrer Buchung ${reference}`);
  await page.goto(linkIn(found));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
});
