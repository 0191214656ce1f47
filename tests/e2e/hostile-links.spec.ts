import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from './helpers.ts';

// A compromised content system sends `javascript:` subscribe links (mock fault `hostileLinks`).
// A server of its own, so nothing the suite cached before has the plans already.

const CONTROL = process.env['MOCK_CONTROL_URL'] ?? 'http://127.0.0.1:4009';
const PUBLISHING = 'http://127.0.0.1:4010/api/v1';
const port = E2E_PORT + 43;
const origin = `http://harbour-times.localhost:${port}`;
let server: ChildProcess | undefined;

test.beforeAll(async ({ request }) => {
  await request.post(`${CONTROL}/faults`, { data: { service: 'publishing', hostileLinks: true } });
  const outDir = process.env.MASTHEAD_OUT_DIR ?? './dist';
  server = spawn(process.execPath, [`${outDir}/server/entry.mjs`], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const up = await fetch(`http://127.0.0.1:${port}/favicon.svg`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
});

test.afterAll(async ({ request }) => {
  server?.kill();
  await request.delete(`${CONTROL}/faults`);
});

/** Every subscribe link on the page: none may run script; clicking each leaves the page unharmed. */
async function clickEverySubscribeLink(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator('a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  const subscribe = page.getByRole('link', { name: /Subscribe/ });
  for (let i = 0; i < (await subscribe.count()); i += 1) {
    await subscribe
      .nth(i)
      .click({ noWaitAfter: true })
      .catch(() => undefined);
  }
  await page.waitForTimeout(300);
  expect(await page.title()).not.toBe('hostile link ran');
  return hrefs.filter((href) => /^\s*(javascript|data|vbscript):/i.test(href));
}

for (const path of ['/plans', '/plans/annual']) {
  test(`no javascript: link from the upstream on ${path}`, async ({ page }) => {
    const response = await page.goto(`${origin}${path}`);
    expect(response?.status()).toBe(200);
    expect(await clickEverySubscribeLink(page)).toEqual([]);
  });
}

test('no javascript: link from the upstream on the e-paper paywall', async ({ page, request }) => {
  const editions = (await (
    await request.get(`${PUBLISHING}/epaper`, {
      headers: { 'X-Tenant': 'harbour-times', Accept: 'application/json' },
    })
  ).json()) as { data: { slug: string; requires_subscription: boolean }[] };
  const locked = editions.data.find((edition) => edition.requires_subscription);
  expect(locked, 'a subscriber-only edition').toBeTruthy();
  await page.goto(`${origin}/epaper/${locked!.slug}`);
  await expect(page.getByRole('link', { name: /log in/i }).first()).toBeVisible();
  expect(await clickEverySubscribeLink(page)).toEqual([]);
});
