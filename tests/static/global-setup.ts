import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startMock } from '../../mock/index.ts';
import { demoEnv } from '../../scripts/demo-env.mjs';
import { freePort } from '../fixtures/net.ts';

/** The tenant built and served in the test run: streams, e-paper, comments and booking on its live server. */
export const TENANT = 'harbour-times';
/** Booking and comments, no `static.liveOrigin`: both are left out of its copy. */
export const OFFLINE_TENANT = 'alpine-post';
/** Lowered public limit: the build needs more calls than this, so it must wait for a window. */
export const PUBLIC_LIMIT = 20;

async function stats(
  controlUrl: string,
): Promise<{ total: number; routes: Record<string, number> }> {
  const res = await fetch(`${controlUrl}/stats`);
  return ((await res.json()) as { publishing: { total: number; routes: Record<string, number> } })
    .publishing;
}

/** `npm run build:static -- <tenant>` against the test's mock (async: the mock answers in this process). */
function buildStatic(
  work: string,
  tenantsFile: string,
  skipServerBuild: boolean,
  tenant = TENANT,
): Promise<string> {
  const args = ['scripts/build-static.ts', tenant, '--tenants', tenantsFile];
  args.push('--out', join(work, 'out'), '--cache', join(work, 'cache'));
  if (skipServerBuild) args.push('--skip-server-build');
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...demoEnv(), ASTRO_TELEMETRY_DISABLED: '1' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`build:static failed:\n${output}`)),
    );
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    postsPerTenant: 14,
    limits: { publicPerMinute: PUBLIC_LIMIT },
  });
  // Inside the project: the built server resolves its packages from node_modules.
  mkdirSync('.cache', { recursive: true });
  const work = mkdtempSync(join('.cache', 'static-test-'));
  const tenants = readFileSync('tenants.json', 'utf8')
    .replaceAll('http://127.0.0.1:4010/api/v1', `${mock.publishingUrl}`)
    .replaceAll('http://127.0.0.1:4020/api/v1', `${mock.lodgingUrl}`);
  const tenantsFile = join(work, 'tenants.json');
  writeFileSync(tenantsFile, tenants);

  let firstOutput: string;
  let secondOutput: string;
  let afterFirst: Awaited<ReturnType<typeof stats>>;
  let afterSecond: typeof afterFirst;
  try {
    firstOutput = await buildStatic(work, tenantsFile, false);
    afterFirst = await stats(mock.controlUrl);
    secondOutput = await buildStatic(work, tenantsFile, true);
    afterSecond = await stats(mock.controlUrl);
    // A tenant with booking and comments but no live server, built without a limit to wait for,
    // from a content system that sends `javascript:` subscribe links (none may reach the copy).
    await fetch(`${mock.controlUrl}/limits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ publicPerMinute: 0 }),
    });
    await fetch(`${mock.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ service: 'publishing', hostileLinks: true }),
    });
    await buildStatic(work, tenantsFile, true, OFFLINE_TENANT);
    await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
  } catch (error) {
    // Playwright runs no teardown when the setup fails.
    await mock.close();
    rmSync(work, { recursive: true, force: true });
    throw error;
  }

  const port = await freePort();
  const dir = join(work, 'out', TENANT);
  // A plain static file server that knows nothing of Masthead.
  const server = spawn(
    process.execPath,
    ['node_modules/sirv-cli/bin.js', dir, '--port', String(port), '--host', '127.0.0.1', '--quiet'],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(`${base}/`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (tries > 100) throw new Error('sirv did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const facts = {
    base,
    dir,
    offlineDir: join(work, 'out', OFFLINE_TENANT),
    publishingUrl: mock.publishingUrl,
    controlUrl: mock.controlUrl,
    firstOutput,
    secondOutput,
    afterFirst,
    afterSecond,
  };
  writeFileSync(join(work, 'facts.json'), JSON.stringify(facts));
  process.env['STATIC_FACTS'] = resolve(work, 'facts.json');

  return async () => {
    server.kill();
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  };
}
