import { expect, test } from '@playwright/test';
import { checkA11y, tenantUrl } from './helpers.ts';
import { raw } from './raw-http.ts';

const tenants = [
  { id: 'daily-planet', name: 'Daily Planet', primary: 'rgb(11, 79, 156)' },
  { id: 'harbour-times', name: 'Harbour Times', primary: 'rgb(15, 110, 110)' },
  { id: 'alpine-post', name: 'Alpine Post', primary: 'rgb(140, 28, 19)' },
];

for (const tenant of tenants) {
  test(`${tenant.name} home shows its own name and theme colour`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    const response = await page.goto(tenantUrl(tenant.id, '/'));
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(new RegExp(tenant.name));
    await expect(page.locator('header .brand')).toHaveAccessibleName(tenant.name);
    const background = await page
      .locator('header.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe(tenant.primary);
    for (const other of tenants.filter((t) => t.id !== tenant.id)) {
      await expect(page.locator('header')).not.toContainText(other.name);
    }
    await checkA11y(page);
  });
}

test('an unknown host gets the "site not found" page, never a default tenant', async ({ page }) => {
  const response = await page.goto(tenantUrl('nobody', '/'));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Site not found');
  for (const tenant of tenants) await expect(page.locator('body')).not.toContainText(tenant.name);
});

test('a path-prefixed URL keeps its links inside the prefix', async ({ page, baseURL }) => {
  await page.goto(`${baseURL}/alpine-post/`);
  await expect(page.locator('header .brand')).toHaveAccessibleName('Alpine Post');
  const hrefs = await page
    .locator('header a, footer a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThan(3);
  for (const href of hrefs) expect(href).toMatch(/^\/alpine-post(\/|$)/);
  await page.locator('header nav a').last().click();
  expect(new URL(page.url()).pathname).toMatch(/^\/alpine-post\//);
  await expect(page.locator('header .brand')).toHaveAccessibleName('Alpine Post');
});

test('the 404 page is branded for a known tenant', async ({ page }) => {
  const response = await page.goto(tenantUrl('harbour-times', '/no-such-page'));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.locator('header .brand')).toHaveAccessibleName('Harbour Times');
});

test('?tenant= is a preview of an address with no tenant, and redirected away on a tenant’s own', async () => {
  const port = Number(process.env.E2E_PORT ?? 4400);
  const get = (host: string, path: string) =>
    raw(port, { path, headers: { Host: `${host}:${port}` } });
  // On a tenant's host it picks nothing: one stored copy per made-up value would flood the caches.
  for (const query of ['?tenant=alpine-post', '?tenant=made-up-1', '?tenant=made-up-2']) {
    const response = await get('harbour-times.localhost', `/streams${query}`);
    expect(response.status).toBe(301);
    expect(response.headers['location']).toBe('/streams');
  }
  const prefixed = await get('127.0.0.1', '/alpine-post/streams?tenant=daily-planet');
  expect(prefixed.status).toBe(301);
  expect(prefixed.headers['location']).toBe('/alpine-post/streams');
  // Where no host or prefix names a tenant, it still picks one.
  const preview = await get('127.0.0.1', '/streams?tenant=daily-planet');
  expect(preview.status).toBe(200);
  expect(preview.body).toContain('Daily Planet');
});
