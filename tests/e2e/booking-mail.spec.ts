import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { checkA11y, tenantUrl } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

// The guest's loop: the confirmation e-mail and "find my booking", with the e2e site's mail going
// to the sink tests/e2e/mail/server.mjs (SMTP 4325, its inbox as JSON on 4326).
const INBOX = `http://127.0.0.1:${process.env['E2E_MAIL_HTTP_PORT'] ?? 4326}/messages`;
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
  const email = `retry.${Date.now()}@example.com`;
  await page.goto(tenantUrl('harbour-times', '/stay'));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Check-in').fill(day(BASE + 10));
  await page.getByLabel('Check-out').fill(day(BASE + 11));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Adults').fill('1');
  await page.getByRole('button', { name: 'Show rooms' }).click();
  await page.getByRole('radio', { name: /Standard Double/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('First name').fill('Re');
  await page.getByLabel('Last name').fill('Try');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and book' })).toBeFocused();
  // The review's form as the browser would send it again (an answer lost, the guest retrying).
  const sent = await page.evaluate(() => {
    const form = document.querySelector<HTMLFormElement>('masthead-booking form')!;
    const data = new FormData(form);
    data.set('intent', 'book');
    return { action: form.action, fields: [...data] as [string, string][] };
  });
  await page.getByRole('button', { name: 'Book' }).click();
  const summary = page.locator('[data-confirmation]');
  await expect(summary).toContainText(/BK-[A-Z0-9]{6}/);
  const reference = /BK-[A-Z0-9]{6}/.exec(await summary.innerText())?.[0];

  const again = await page.evaluate(async ({ action, fields }) => {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    const answer = await fetch(action, {
      method: 'POST',
      body,
      headers: { 'x-masthead-step': '1' },
    });
    const html = new DOMParser().parseFromString(await answer.text(), 'text/html');
    return html.querySelector('[data-confirmation]')?.textContent ?? '';
  }, sent);
  expect(again).toContain(reference);
  await mailTo(request, email);
  // Give a second e-mail time to arrive, were one sent.
  await page.waitForTimeout(500);
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
    await expect(page).toHaveURL(/\/stay\/manage\?posted=[\w-]+$/);
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

test('cancelling from the manage link mails the guest once, like the confirmation', async ({
  page,
  request,
}) => {
  const email = `storno.${Date.now()}@example.com`;
  const reference = await bookAlpine(page, email, 40);
  const confirmation = await mailTo(request, email);
  await page.goto(`${linkIn(confirmation)}?cancel=1`);
  await page.getByRole('button', { name: 'Ja, Buchung stornieren' }).click();
  await expect(page.getByText('Ihre Buchung ist storniert.')).toBeVisible();
  // A reload (a GET after the redirect) sends nothing again.
  await page.reload();
  await expect
    .poll(async () => (await inbox(request, email)).map((mail) => mail.subject))
    .toEqual([expect.stringContaining(reference), `Ihre Buchung ${reference} ist storniert`]);
  const cancelled = (await inbox(request, email))[1]!;
  expect(cancelled.text).toContain('Guten Tag Heidi Muster');
  expect(cancelled.text).toMatch(/http:\/\/alpine-post\.localhost:\d+\/stay\b/);
  await page.waitForTimeout(500);
  expect(await inbox(request, email)).toHaveLength(2);
});
