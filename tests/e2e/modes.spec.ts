import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { raw } from './raw-http.ts';

// The built server (from Playwright's webServer build) started again in the other run-time modes.
const outDir = process.env.MASTHEAD_OUT_DIR ?? './dist';
const base = Number(process.env.E2E_PORT ?? 4400) + 30;

async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [`${outDir}/server/entry.mjs`], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const up = await fetch(`http://127.0.0.1:${port}/favicon.svg`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`server on ${port} did not start`);
}

const servers: ChildProcess[] = [];
test.afterAll(() => {
  for (const server of servers) server.kill();
});

test('behind a trusted proxy, X-Forwarded-Host picks the tenant and shared caches keep tenants apart', async ({
  request,
}) => {
  const port = base + 1;
  servers.push(await startServer(port, { TRUST_PROXY: 'true' }));
  for (let round = 0; round < 2; round += 1) {
    for (const [host, name] of [
      ['daily-planet.localhost', 'Daily Planet'],
      ['harbour-times.localhost', 'Harbour Times'],
    ] as const) {
      const response = await request.get(`http://127.0.0.1:${port}/plans`, {
        headers: { 'X-Forwarded-Host': host },
      });
      expect(response.status()).toBe(200);
      expect(await response.text()).toContain(`<title>Subscribe · ${name}</title>`);
      expect(response.headers()['vary']).toContain('X-Forwarded-Host');
    }
  }
});

test('without TRUST_PROXY a forged X-Forwarded-Host picks nothing', async ({ request }) => {
  const response = await request.get(
    `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4400)}/plans`,
    {
      headers: { 'X-Forwarded-Host': 'daily-planet.localhost' },
    },
  );
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain('Site not found');
});

test('single-tenant mode serves one tenant on any host', async ({ request }) => {
  const port = base + 2;
  servers.push(await startServer(port, { MASTHEAD_TENANT: 'alpine-post' }));
  const response = await request.get(`http://127.0.0.1:${port}/plans`);
  expect(response.status()).toBe(200);
  // Alpine Post speaks German (locale de-CH).
  expect(await response.text()).toContain('<title>Abonnieren · Alpine Post</title>');
});

test.describe('behind a trusted proxy that rewrites Host', () => {
  const port = base + 3;
  const publicOrigin = 'https://daily-planet.localhost';
  const proxied = {
    Host: `10.0.0.5:${port}`,
    'X-Forwarded-Host': 'daily-planet.localhost',
    'X-Forwarded-Proto': 'https',
  };
  test.beforeAll(async () => {
    servers.push(await startServer(port, { TRUST_PROXY: 'true' }));
  });

  const form = (path: string, origin: string, body: string) =>
    raw(
      port,
      {
        method: 'POST',
        path,
        headers: {
          ...proxied,
          Origin: origin,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      body,
    );

  test('login, register, logout and comment posts from the public origin are accepted', async () => {
    const login = await form(
      '/login?_action=login',
      publicOrigin,
      'email=reader%40masthead.test&password=masthead-demo',
    );
    expect(login.status).toBeLessThan(400);
    expect(String(login.headers['set-cookie'])).toContain('astro-session');
    for (const [path, body] of [
      ['/register?_action=register', 'name=&email=not-an-address&password=x'],
      ['/logout?_action=logout', ''],
      ['/posts/welcome?_action=postComment', 'post=1&content='],
    ] as const) {
      const response = await form(path, publicOrigin, body);
      expect(response.status, path).not.toBe(403);
      expect(response.body, path).not.toContain('Cross-site');
    }
  });

  test('a post from the internal address or another site is still refused', async () => {
    for (const origin of [`http://10.0.0.5:${port}`, 'https://evil.example']) {
      const response = await form('/login?_action=login', origin, 'email=a%40b.c&password=x');
      expect(response.status, origin).toBe(403);
    }
  });

  test('canonical URLs, og:url, RSS and sitemap use the public address', async () => {
    // One of daily-planet's exact public names in tenants.json: https on it.
    const named = { ...proxied, 'X-Forwarded-Host': 'dailyplanet.example.com' };
    const site = 'https://dailyplanet.example.com';
    const plans = await raw(port, { path: '/plans', headers: named });
    expect(plans.body).toContain(`<link rel="canonical" href="${site}/plans">`);
    expect(plans.body).toContain(`<meta property="og:url" content="${site}/plans">`);
    for (const path of ['/rss.xml', '/sitemap.xml', '/sitemap-pages.xml']) {
      const body = (await raw(port, { path, headers: named })).body;
      expect(body, path).toContain(site);
      expect(body, path).not.toContain('10.0.0.5');
    }
  });
});
