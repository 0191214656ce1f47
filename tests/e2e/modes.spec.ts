import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';

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
  expect(await response.text()).toContain('<title>Subscribe · Alpine Post</title>');
});
