import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEnv } from '../../scripts/demo-env.mjs';
import { send, waitFor } from './http.ts';
import { freePort } from './processes.ts';
import type { Service } from './processes.ts';
import { OUT_DIR, startDocumentedMock, startSite, type Mock } from './stack.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a server entry that should refuse to start: its exit code and everything it printed. */
function runUntilExit(script: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', MASTHEAD_OUT_DIR: OUT_DIR, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A server that starts after all would never exit: stop it so the assertion below fails.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.each([
  ['npm start (scripts/start.mjs)', join(root, 'scripts/start.mjs'), []],
  ['the built entry (dist/server/entry.mjs)', join(OUT_DIR, 'server/entry.mjs'), []],
  // Without the mock, and on a port of this suite's range should the check ever let it through.
  ['npm run dev (scripts/dev.mjs)', join(root, 'scripts/dev.mjs'), ['--port', '4899']],
])('%s with invalid settings', (_label, script, args) => {
  it('refuses to start, naming each variable, its rule and the value given', async () => {
    const { code, output } = await runUntilExit(script, args, {
      MASTHEAD_MOCK: '0',
      UPSTREAM_TIMEOUT_MS: 'abc',
      COMMENTS_PER_IP_PER_10_MIN: '0',
    });
    expect(code).toBeGreaterThan(0);
    expect(output).toContain('Masthead cannot start: 2 invalid settings in the environment.');
    expect(output).toContain('UPSTREAM_TIMEOUT_MS must be a number greater than 0 (got "abc")');
    expect(output).toContain(
      'COMMENTS_PER_IP_PER_10_MIN must be a whole number greater than 0 (got "0")',
    );
    expect(output).not.toContain('listening');
  });
});

describe('npm start with short bearer secrets', () => {
  it('refuses to start, naming each setting and never its value', async () => {
    const { code, output } = await runUntilExit(join(root, 'scripts/start.mjs'), [], {
      MASTHEAD_MOCK: '0',
      METRICS_TOKEN: 'S3CRET-metrics',
      STATUS_TOKEN: 'x'.repeat(32),
      PURGE_SECRETS: `daily-planet=${'p'.repeat(32)},harbour-times=S3CRET-purge`,
    });
    expect(code).toBeGreaterThan(0);
    expect(output).toContain('Masthead cannot start: 2 invalid settings in the environment.');
    expect(output).toContain('METRICS_TOKEN must be a token of at least 32 characters');
    expect(output).toContain('PURGE_SECRETS must be `tenant-id=<secret>` pairs');
    expect(output).not.toContain('STATUS_TOKEN');
    expect(output).not.toContain('S3CRET');
  });
});

describe('npm start with valid settings', () => {
  let mock: Mock;
  let site: Service;

  beforeAll(async () => {
    mock = await startDocumentedMock();
    site = await startSite({ mock, env: { UPSTREAM_TIMEOUT_MS: '2500', COMPRESSION: 'false' } });
  });
  afterAll(async () => {
    await site.stop();
    await mock.close();
  });

  it('starts, and /_health reports the settings as fine', async () => {
    const health = await send(`http://127.0.0.1:${site.port}/_health`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', settings: 'ok' });
  });

  it('serves pages through the site middleware (tenant resolution, security headers)', async () => {
    const home = await send(`http://127.0.0.1:${site.port}/`, { host: 'daily-planet.localhost' });
    expect(home.status).toBe(200);
    expect(home.headers['x-frame-options']).toBe('DENY');
    expect(home.text).toContain('Daily Planet');
  });
});

describe.each([
  ['npm start (scripts/start.mjs)', join(root, 'scripts/start.mjs')],
  ['the built entry (dist/server/entry.mjs)', join(OUT_DIR, 'server/entry.mjs')],
])('%s at start-up', (_label, script) => {
  let mock: Mock;
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    mock = await startDocumentedMock();
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await mock.close();
  });

  it('logs one line per tenant on how its APIs are read and starts the change watchers, before any request', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        ...demoEnv({}),
        HOST: '127.0.0.1',
        PORT: String(port),
        MASTHEAD_OUT_DIR: OUT_DIR,
        PUBLISHING_BASE_URL: mock.publishingUrl,
        LODGING_BASE_URL: mock.lodgingUrl,
        WATCH_CHANGES: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const profileLines = () =>
      output
        .split('\n')
        .filter((line) => line.includes('"event":"tenant.upstream_profile"'))
        .map((line) => JSON.parse(line) as { tenant: string; message: string });
    // Listening, and not one request sent yet.
    await waitFor('the server to listen', () =>
      Promise.resolve(/listening/i.test(output) ? true : undefined),
    );
    const tenants = profileLines().map((line) => line.tenant);
    expect(tenants.sort()).toEqual(['alpine-post', 'daily-planet', 'harbour-times']);
    for (const line of profileLines()) expect(line.message).toMatch(/publishing profile \S+/);

    // The change watchers run from the start too: each tenant's newest posts read upstream (the
    // front page's pool, which nothing else reads before a request).
    const looks = async () => {
      const stats = await send(`${mock.controlUrl}/stats/tenants`);
      const byTenant = JSON.parse(stats.text) as Record<string, Record<string, number>>;
      const watched = ['alpine-post', 'daily-planet', 'harbour-times'].every(
        (id) => (byTenant[id]?.['GET /posts?per_page=50'] ?? 0) > 0,
      );
      return watched ? true : undefined;
    };
    await waitFor('a change watcher look per tenant, before any request', looks, 20_000);

    // A first request says nothing again.
    const home = await send(`http://127.0.0.1:${port}/`, { host: 'daily-planet.localhost' });
    expect(home.status).toBe(200);
    expect(profileLines()).toHaveLength(3);
  });
});

describe.each([
  ['npm start (scripts/start.mjs)', join(root, 'scripts/start.mjs')],
  ['the built entry (dist/server/entry.mjs)', join(OUT_DIR, 'server/entry.mjs')],
])('%s behind a trusted proxy (TRUST_PROXY=true)', (_label, script) => {
  /** Starts the server with `env`, returns what it printed up to its listening line, stops it. */
  async function startUp(env: NodeJS.ProcessEnv): Promise<string> {
    const { HOST: _unset, ...inherited } = process.env;
    const child = spawn(process.execPath, [script], {
      env: {
        ...inherited,
        PORT: String(await freePort()),
        MASTHEAD_OUT_DIR: OUT_DIR,
        WATCH_CHANGES: 'false',
        TRUST_PROXY: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor('the server to listen', () =>
        Promise.resolve(/listening on/i.test(output) ? true : undefined),
      );
      return output;
    } finally {
      child.kill('SIGTERM');
    }
  }

  it('listens on loopback only without a HOST (the proxy on this machine), silently', async () => {
    const output = await startUp({});
    expect(output).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/i);
    expect(output).not.toContain('TRUST_PROXY is on');
  });

  it('warns at start when HOST lets other machines reach Node directly', async () => {
    const output = await startUp({ HOST: '0.0.0.0' });
    expect(output).toContain(
      'TRUST_PROXY is on and HOST=0.0.0.0 lets other machines reach Node directly',
    );
  });
});
