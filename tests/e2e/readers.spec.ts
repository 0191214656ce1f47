import { expect, test, type Page } from '@playwright/test';
import { day } from '../fixtures/dates.ts';
import { en } from '../../src/lib/i18n/messages/en.ts';
import { de } from '../../src/lib/i18n/messages/de.ts';
import type { MessageKey } from '../../src/lib/i18n/dictionary.ts';
import { DEMO_TENANTS, pageTypes } from './page-types.ts';
import { E2E_PORT, tenantUrl } from './helpers.ts';

const API = 'http://127.0.0.1:4010/api/v1';

/** What the API wrote (articles, names, titles): English in the demo data, so not interface text. */
const CONTENT =
  '.content, .card .title, .card .excerpt, .card .panel, .card .section-label, .comment-list .body, .comment-list .author, .plan .name, .plan .features, .plan > p:not(.price), .lead, ' +
  '.description, .edition .title, .breadcrumbs [aria-current], article header h1, ' +
  '.tags, .index, .cloud, .site-footer p:first-child, [data-lead], ' +
  '.results .title, .results .excerpt, .results .section-label, .section-block li, .live-band li, .edition-promo .title';

/** English interface phrases that German says differently, cut at their placeholders. */
function englishPhrases(): { key: string; phrase: RegExp }[] {
  const texts = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : Object.values(value as Record<string, string>);
  return (Object.keys(en) as MessageKey[])
    .filter((key) => !key.startsWith('widget.'))
    .flatMap((key) => {
      const german = new Set(texts(de[key]));
      return texts(en[key])
        .filter((text) => !german.has(text))
        .flatMap((text) => text.split(/\{\w+\}/))
        .map((fragment) => fragment.replace(/^[\s·:,.“”←→()]+|[\s·:,.“”←→()]+$/g, ''))
        .filter((fragment) => fragment.length >= 4 && /[a-z]{3}/i.test(fragment))
        .filter((fragment) => ![...german].some((text) => text.includes(fragment)))
        .map((fragment) => ({
          key,
          phrase: new RegExp(
            `(^|[^\\p{L}])${fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`,
            'u',
          ),
        }));
    });
}

/** The interface text of the page: visible text and accessible names, the API's content removed. */
async function interfaceText(page: Page): Promise<string> {
  return page.evaluate((content) => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    copy.querySelectorAll(`${content}, script, style`).forEach((node) => node.remove());
    const labels = [...copy.querySelectorAll('[aria-label], [title], [alt], [placeholder]')].map(
      (node) =>
        ['aria-label', 'title', 'alt', 'placeholder']
          .map((name) => node.getAttribute(name) ?? '')
          .join(' '),
    );
    // Text node by text node: adjacent elements' words must not run together.
    const walker = document.createTreeWalker(copy.querySelector('body')!, NodeFilter.SHOW_TEXT);
    const words: string[] = [];
    while (walker.nextNode()) words.push(walker.currentNode.textContent ?? '');
    return `${words.join(' ')} ${labels.join(' ')}`;
  }, CONTENT);
}

test('the German tenant’s pages contain no English interface text', async ({ page }) => {
  const alpine = DEMO_TENANTS.find((tenant) => tenant.locale.startsWith('de'))!;
  const phrases = englishPhrases();
  expect(phrases.length).toBeGreaterThan(100);
  const found: string[] = [];
  for (const type of await pageTypes(alpine)) {
    await page.goto(tenantUrl(alpine.id, type.path));
    await expect(page.locator('html')).toHaveAttribute('lang', alpine.locale);
    const text = await interfaceText(page);
    for (const { key, phrase } of phrases) {
      const match = phrase.exec(text);
      if (match) found.push(`${type.path}: "${match[0].trim()}" (${key})`);
    }
  }
  expect(found).toEqual([]);
  // The same check does find the English of an English tenant.
  await page.goto(tenantUrl('harbour-times', '/search'));
  const english = await interfaceText(page);
  expect(phrases.filter(({ phrase }) => phrase.test(english)).length).toBeGreaterThan(5);
  // The dictionary is really in use, not just English removed.
  await page.goto(tenantUrl(alpine.id, '/'));
  await expect(page.getByRole('link', { name: 'Abonnieren' }).first()).toBeVisible();
});

test('a German reader’s refused forms answer in German, the API’s own text aside', async ({
  page,
  request,
}) => {
  const alpine = DEMO_TENANTS.find((tenant) => tenant.locale.startsWith('de'))!;
  // Sign-in: the server's rules (a browser without form validation posts anything).
  await page.goto(tenantUrl(alpine.id, '/register'));
  await page.locator('form:has([name="password_confirmation"])').evaluate((form) => {
    (form as HTMLFormElement).noValidate = true;
  });
  await page.getByLabel('Name', { exact: true }).fill('Gina');
  await page.getByLabel('E-Mail-Adresse').fill('gina@example');
  await page.getByLabel('Passwort', { exact: true }).fill('kurz');
  await page.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page.getByLabel('Passwort', { exact: true })).toHaveAccessibleDescription(
    /Verwenden Sie mindestens 8 Zeichen\./,
  );
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveAccessibleDescription(
    /Geben Sie eine E-Mail-Adresse wie name@example\.com ein\./,
  );
  await expect(page.getByRole('alert')).toContainText(
    'Bitte korrigieren Sie die markierten Felder.',
  );
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveValue('gina@example');

  // A comment of spaces only.
  const post = (await pageTypes(alpine)).find((type) => type.name === 'post')!;
  await page.goto(tenantUrl(alpine.id, post.path));
  const form = page.locator('#comment-form');
  await form.getByLabel('Kommentar', { exact: true }).fill('   ');
  await form.getByLabel('Name', { exact: true }).fill('Gina');
  await form.getByLabel('E-Mail', { exact: true }).fill('gina@example.com');
  await form.getByRole('button', { name: 'Kommentar senden' }).click();
  await expect(page.getByRole('alert')).toContainText('Prüfen Sie die markierten Felder');
  await expect(form.getByLabel('Kommentar', { exact: true })).toHaveAccessibleDescription(
    /Ihr Kommentar besteht nur aus Leerzeichen/,
  );

  // The booking API answers in the tenant's language, or in the one the caller asks for.
  const property = alpine.lodging!.propertyIds[0]!;
  const query = `property=${property}&checkIn=2026-02-30&checkOut=x&adults=1`;
  // The path prefix: Node's resolver (unlike Chromium's) knows no *.localhost names.
  const url = `http://127.0.0.1:${E2E_PORT}/${alpine.id}/api/booking/availability?${query}`;
  type Refused = { error: { fields: Record<string, string[]> } };
  const german = (await (await request.get(url)).json()) as Refused;
  expect(german.error.fields.checkIn).toEqual(['Geben Sie das Anreisedatum als JJJJ-MM-TT ein.']);
  const french = (await (
    await request.get(url, { headers: { 'Accept-Language': 'fr-CH' } })
  ).json()) as Refused;
  expect(french.error.fields.checkIn).toEqual([
    'Saisissez la date d’arrivée au format AAAA-MM-JJ.',
  ]);
  expect(JSON.stringify([german, french])).not.toContain('\u2063');
});

test.describe('at 360 px wide', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  const overflow = (page: Page) =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );

  for (const tenant of DEMO_TENANTS) {
    test(`no ${tenant.name} page scrolls sideways, menu open or closed`, async ({ page }) => {
      const wide: string[] = [];
      for (const type of await pageTypes(tenant)) {
        await page.goto(tenantUrl(tenant.id, type.path));
        if ((await overflow(page)) > 0)
          wide.push(`${type.path}: ${await overflow(page)} px too wide`);
        await page.locator('.menu summary').click();
        if ((await overflow(page)) > 0) wide.push(`${type.path} (menu open)`);
      }
      expect(wide).toEqual([]);
    });
  }

  test('every booking step fits, on /stay and in the embed', async ({ page }) => {
    const harbour = DEMO_TENANTS.find((tenant) => tenant.id === 'harbour-times')!;
    const property = harbour.lodging!.propertyIds[0]!;
    const stay = { property, checkIn: day(420), checkOut: day(423), adults: '2', children: '1' };
    for (const path of ['/stay', `/embed/booking`]) {
      const at = (query: Record<string, string>) =>
        tenantUrl(harbour.id, `${path}?${new URLSearchParams({ property, ...query })}`);
      await page.goto(at({}));
      await expect(
        page.getByRole('heading', { name: 'When would you like to stay?' }),
      ).toBeVisible();
      expect(await overflow(page), `${path} dates`).toBeLessThanOrEqual(0);
      await page.goto(at({ ...stay, step: 'rooms' }));
      await expect(page.getByRole('heading', { name: 'Choose a room' })).toBeVisible();
      expect(await overflow(page), `${path} rooms`).toBeLessThanOrEqual(0);
      const room = await page.locator('input[name="roomTypeId"]:enabled').first().inputValue();
      await page.goto(at({ ...stay, roomTypeId: room, step: 'details' }));
      await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible();
      expect(await overflow(page), `${path} details`).toBeLessThanOrEqual(0);
    }
  });

  test('the header is one compact bar with a menu that works without JavaScript', async ({
    browser,
  }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 360, height: 780 },
    });
    const page = await context.newPage();
    await page.goto(tenantUrl('daily-planet', '/categories'));
    const header = page.locator('.site-header');
    expect((await header.boundingBox())!.height).toBeLessThan(80);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    // Search and Subscribe stay in the bar, without opening the menu.
    await expect(header.getByRole('link', { name: 'Search' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Subscribe' })).toBeVisible();
    await header.locator('summary').click();
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'All sections' })).toBeVisible();
    await context.close();
  });
});

test('the current section is marked in the menu and /categories and /tags are linked', async ({
  page,
}) => {
  await page.goto(tenantUrl('daily-planet', '/search'));
  await expect(page.locator('.site-header').getByRole('link', { name: 'Search' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const footer = page.locator('.site-footer');
  await expect(footer.getByRole('link', { name: 'All sections' })).toHaveAttribute(
    'href',
    '/categories',
  );
  await expect(footer.getByRole('link', { name: 'Topics' })).toHaveAttribute('href', '/tags');
});

test('the lead story of the front page is the newest featured post', async ({ page, request }) => {
  const response = await request.get(`${API}/posts?featured=1&per_page=50`, {
    headers: { 'X-Tenant': 'daily-planet' },
  });
  const featured = ((await response.json()) as { data: { title: string; published_at: string }[] })
    .data;
  expect(featured.length).toBeGreaterThan(1);
  const newest = [...featured].sort(
    (a, b) => Date.parse(b.published_at) - Date.parse(a.published_at),
  )[0]!;
  await page.goto(tenantUrl('daily-planet', '/'));
  await expect(page.locator('[data-lead] .title')).toHaveText(newest.title);
});

test('a signed-in subscriber is recognised while the public page stays the same for everyone', async ({
  page,
  browser,
}) => {
  const post = (await (
    await fetch(`${API}/posts?per_page=1`, { headers: { 'X-Tenant': 'daily-planet' } })
  ).json()) as {
    data: { slug: string }[];
  };
  const url = tenantUrl('daily-planet', `/posts/${post.data[0]!.slug}`);
  // A visitor without cookies, in its own browser context (Chromium resolves *.localhost).
  const anonymous = await (await browser.newContext()).newPage();
  const fetchAnonymously = async () => (await anonymous.goto(url))!.text();
  const before = await fetchAnonymously();

  await page.goto(url);
  const header = page.locator('.site-header');
  await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText('Commenting as')).toBeHidden();

  await page.goto(tenantUrl('daily-planet', '/login'));
  await page.getByLabel('E-mail address').fill('subscriber@masthead.test');
  await page.getByLabel('Password').fill('masthead-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.goto(url);
  await expect(header.getByRole('link', { name: /Sam Subscriber/ })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Log in' })).toBeHidden();
  // The name comes from /reader.css (generated content), so the page's HTML need not carry it.
  await expect(page.locator('.commenting-as')).toBeVisible();
  const shownName = await page
    .locator('.commenting-as .reader-name')
    .evaluate((node) => getComputedStyle(node, '::before').content);
  expect(shownName).toBe('"Sam Subscriber"');
  await expect(page.getByLabel('E-mail', { exact: true })).toBeHidden();

  expect(await fetchAnonymously()).toBe(before);
  await anonymous.context().close();
});
