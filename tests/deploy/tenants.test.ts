/**
 * Tenants at run time (issue 35): two `npm start` servers on one Redis behind the shipped nginx edge,
 * each reading its own tenants file (`TENANTS_FILE`). The first follows its file; the second does not
 * watch (`TENANTS_WATCH=false`), so it learns of a change only from the first server's announcement
 * on Redis or from `SIGHUP`. A site is added, renamed, broken and removed without a build or a restart.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, waitFor } from './http.ts';
import { freePort } from './processes.ts';
import type { Service } from './processes.ts';
import { OUT_DIR, startDocumentedMock, startEdge, startRedis, startSite } from './stack.ts';
import type { Mock } from './stack.ts';

interface Entry {
  id: string;
  name: string;
  description?: string;
  hosts: string[];
  [key: string]: unknown;
}

const repoFile = JSON.parse(
  readFileSync(new URL('../../tenants.json', import.meta.url), 'utf8'),
) as { tenants: Entry[] };
const ADDED = 'alpine-post';
const added = repoFile.tenants.find((tenant) => tenant.id === ADDED)!;
const others = repoFile.tenants.filter((tenant) => tenant.id !== ADDED);
/** What the reload must stay within (issue 35). */
const WITHIN_MS = 10_000;

let mock: Mock;
let redis: Service;
let watching: Service;
let listening: Service;
let edge: Service;
let dir: string;
const files = { watching: '', listening: '' };

/** Writes both servers' files: the one that does not watch first, so the announcement finds it. */
function writeTenants(tenants: Entry[], which: (keyof typeof files)[] = ['listening', 'watching']) {
  for (const name of which) {
    writeFileSync(files[name], JSON.stringify({ tenants }, null, 2));
  }
}

const page = (site: Service, path = '/') =>
  send(`http://127.0.0.1:${site.port}${path}`, { host: `${ADDED}.localhost` });
const viaEdge = (path = '/') =>
  send(`http://127.0.0.1:${edge.port}${path}`, {
    host: `${ADDED}.localhost:${edge.port}`,
    headers: { 'Accept-Encoding': 'br' },
  });

/** Until the edge answers the site's `path` from its cache. */
const keptAtTheEdge = (path: string) =>
  waitFor(`${path} kept at the edge`, async () => {
    const reply = await viaEdge(path);
    return reply.status === 200 && reply.headers['x-cache-status'] === 'HIT' ? reply : undefined;
  });

/** Every call to the publishing API takes `ms` longer. */
const setLatency = (ms: number) =>
  send(`${mock.controlUrl}/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ service: 'publishing', latencyMs: ms }),
  });

/** Until every server answers the tenant's home page with `text` (or 404 for `null`). */
function servedEverywhere(what: string, text: string | null, viaTheEdge = false) {
  return waitFor(
    what,
    async () => {
      const replies = await Promise.all([
        page(watching),
        page(listening),
        ...(viaTheEdge ? [viaEdge()] : []),
      ]);
      const ok = replies.every((reply) =>
        text === null ? reply.status === 404 : reply.status === 200 && reply.text.includes(text),
      );
      return ok ? replies : undefined;
    },
    WITHIN_MS,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-tenants-'));
  files.watching = join(dir, 'watching.json');
  files.listening = join(dir, 'listening.json');
  writeTenants(others);
  mock = await startDocumentedMock();
  redis = await startRedis();
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  const edgePort = await freePort();
  const env = { EDGE_PURGE_URL: `http://127.0.0.1:${edgePort}/_edge_purge` };
  [watching, listening] = await Promise.all([
    startSite({ mock, redisUrl, env: { ...env, TENANTS_FILE: files.watching } }),
    startSite({
      mock,
      redisUrl,
      env: { ...env, TENANTS_FILE: files.listening, TENANTS_WATCH: 'false' },
    }),
  ]);
  edge = await startEdge([watching.port, listening.port], edgePort);
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await Promise.all([watching?.stop(), listening?.stop()]);
  await redis?.stop();
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a tenants file that changes while the servers run', () => {
  it('serves an added site on every server', async () => {
    for (const site of [watching, listening]) {
      const unknown = await page(site);
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('Site not found');
    }
    writeTenants([...others, added], ['watching']);
    await waitFor('the added site on the first server', async () =>
      (await page(watching)).status === 200 ? true : undefined,
    );
    // A rolling deploy: the second server's copy arrives after the first one announced the change.
    writeTenants([...others, added], ['listening']);
    const [first] = await servedEverywhere('the added site', added.name);
    expect(first?.text).toContain(`<html lang="de`);
    // The second server does not watch its file: the first one's announcement made it read it.
    expect(listening.printed).toMatch(/"event":"tenants\.reloaded".*"reason":"bus"/);
    expect(watching.printed).toMatch(/"event":"tenants\.reloaded".*"added":\["alpine-post"\]/);
  });

  it('never serves another site’s path-prefixed page on a host a site now names', async () => {
    const other = others[0]!;
    const portal = (site: Service) =>
      send(`http://127.0.0.1:${site.port}/${other.id}/`, {
        host: site === edge ? `portal.localhost:${edge.port}` : 'portal.localhost',
      });
    expect((await portal(edge)).text).toContain(`>${other.name}<`);
    writeTenants([...others, { ...added, hosts: [...added.hosts, 'portal.localhost'] }]);
    // The host is the added site's now: `/<id>/` there is its own address (a 404), on every server.
    await waitFor(
      'the other site gone from the host',
      async () => {
        const replies = await Promise.all([portal(watching), portal(listening), portal(edge)]);
        return replies.every((reply) => reply.status === 404) ? replies : undefined;
      },
      WITHIN_MS,
    );
  });

  it('serves a renamed site under its new name, the edge included', async () => {
    expect((await viaEdge()).status).toBe(200);
    expect((await viaEdge()).headers['x-cache-status']).toBe('HIT');
    const name = `Alpine Post am Abend ${Date.now()}`;
    writeTenants([...others, { ...added, name }]);
    const replies = await servedEverywhere('the new name', name, true);
    for (const reply of replies) expect(reply.text).not.toContain(`>${added.name}<`);
  });

  it('reloads on SIGHUP', async () => {
    const description = `Nachrichten aus den Bergen ${Date.now()}`;
    writeTenants([...others, { ...added, name: 'Alpine Post', description }], ['listening']);
    process.kill(listening.pid!, 'SIGHUP');
    await waitFor(
      'the description after SIGHUP',
      async () => ((await page(listening)).text.includes(description) ? true : undefined),
      WITHIN_MS,
    );
    // The log line may reach this process after the page does (another pipe, pino's buffer).
    const bySignal = /"event":"tenants\.reloaded".*"reason":"signal"/;
    await waitFor('the reload logged', () =>
      Promise.resolve(bySignal.test(listening.printed) || undefined),
    );
    writeTenants([...others, { ...added, name: 'Alpine Post', description }], ['watching']);
    await servedEverywhere('the description on both', description);
  });

  it('stops offering the booking embed at the edge once booking is turned off', async () => {
    const loader = () => viaEdge('/embed/booking.js');
    await keptAtTheEdge('/embed/booking.js');
    const description = `Nachrichten aus den Bergen ${Date.now()}`;
    const features = { ...(added['features'] as object), booking: false };
    writeTenants([...others, { ...added, name: 'Alpine Post', description, features }]);
    await servedEverywhere('the new description', description, true);
    // Partner pages would load a widget whose every step is gone, for up to an hour (stale copies).
    await waitFor(
      'the loader gone at the edge',
      async () => ((await loader()).status === 404 ? true : undefined),
      WITHIN_MS,
    );
  });

  it('refuses a file that fails validation, names why, and keeps serving the tenants it had', async () => {
    const broken = { ...added, hosts: [others[0]!.hosts[0]!] };
    writeTenants([...others, broken], ['watching']);
    await waitFor(
      'the refusal in the log',
      () => Promise.resolve(watching.printed.includes('tenants.reload.refused') ? true : undefined),
      WITHIN_MS,
    );
    const line = watching.printed
      .split('\n')
      .find((text) => text.includes('tenants.reload.refused'));
    expect(line).toContain(
      `tenant \\"${ADDED}\\" (tenants[${others.length}]) → hosts.0: Host \\"${others[0]!.hosts[0]}\\" is already used by tenant \\"${others[0]!.id}\\"`,
    );
    const reply = await page(watching);
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('Alpine Post');
    expect(
      (await send(`http://127.0.0.1:${watching.port}/_health`)).status,
      'a refused reload is no failure of the running server',
    ).toBe(200);
  });

  it('stops serving a removed site on every server and at the edge', async () => {
    for (const path of ['/', '/robots.txt']) await keptAtTheEdge(path);
    // A reader's search still rendering when the file changes (its first API call answers in 3 s,
    // after the edge is purged): it began as the old site.
    const search = `/search?q=harbour-${Date.now()}`;
    await setLatency(3000);
    const calls = mock.state.stats.publishing.total;
    const inFlight = viaEdge(search);
    await waitFor('the search under way', () =>
      Promise.resolve(mock.state.stats.publishing.total > calls ? true : undefined),
    );
    await setLatency(0);
    writeTenants(others);
    const replies = await servedEverywhere('the removed site gone', null, true);
    for (const reply of replies) expect(reply.text).toContain('Site not found');
    expect((await inFlight).text).toContain(added.name);
    // Its page, finished after the purge, is kept by no cache: the address is gone at the edge too.
    await waitFor(
      'the search page gone at the edge',
      async () => ((await viaEdge(search)).status === 404 ? true : undefined),
      WITHIN_MS,
    );
    // Crawlers are not sent to the sitemap of a site that is gone.
    await waitFor(
      'robots.txt gone at the edge',
      async () => ((await viaEdge('/robots.txt')).status === 404 ? true : undefined),
      WITHIN_MS,
    );
    // The others are still there.
    const other = await send(`http://127.0.0.1:${listening.port}/`, { host: others[0]!.hosts[0]! });
    expect(other.status).toBe(200);
  });

  it('never keeps another site’s page at the edge on a host no site names, and serves the site that names it after a restart', async () => {
    const other = others[1]!;
    const lobby = () =>
      send(`http://127.0.0.1:${edge.port}/${other.id}/`, {
        host: `lobby.localhost:${edge.port}`,
        headers: { 'Accept-Encoding': 'br' },
      });
    // Anyone can make such a host up: the edge keeps no copy (the server keeps one for them all).
    for (const reply of [await lobby(), await lobby()]) {
      expect(reply.text).toContain(`>${other.name}<`);
      expect(reply.headers['x-cache-status']).not.toBe('HIT');
    }
    // Both servers restarted (a deploy), and the file changes while they start.
    await Promise.all(
      [watching, listening].map(async (site) => {
        await site.stop();
        await site.start();
      }),
    );
    writeTenants([...others, { ...added, hosts: [...added.hosts, 'lobby.localhost'] }]);
    await servedEverywhere('the added site', added.name);
    await waitFor(
      'the other site gone from the host at the edge',
      async () => ((await lobby()).status === 404 ? true : undefined),
      WITHIN_MS,
    );
  });
});

describe('a server started with a tenants file that fails validation', () => {
  it('refuses to start, naming the file, the tenant and the field', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify({ tenants: [...others, { ...added, locale: 'klingon!' }] }));
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url))],
      {
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: '0',
          MASTHEAD_OUT_DIR: OUT_DIR,
          TENANTS_FILE: file,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A server that starts after all would never exit: stop it so the assertion below fails.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(output).toContain(`Masthead cannot start: Invalid ${file}:`);
    expect(output).toContain(`tenant "${ADDED}" (tenants[${others.length}]) → locale:`);
    expect(output).not.toContain('listening');
  });
});

describe('a server sent SIGHUP while it loads', () => {
  it('keeps starting, and serves', async () => {
    // A build whose entry is hung up on before it loads (an operator's reload during a deploy).
    const out = join(dir, 'hung-up-build');
    mkdirSync(join(out, 'server'), { recursive: true });
    const real = join(OUT_DIR, 'server', 'entry.mjs');
    writeFileSync(
      join(out, 'server', 'entry.mjs'),
      `process.kill(process.pid, 'SIGHUP');\n` +
        `export const { handler, options } = await import(${JSON.stringify(real)});\n`,
    );
    const site = await startSite({
      mock,
      env: { MASTHEAD_OUT_DIR: out, TENANTS_FILE: files.listening, TENANTS_WATCH: 'false' },
    });
    try {
      const home = await send(`http://127.0.0.1:${site.port}/`, { host: others[0]!.hosts[0]! });
      expect(home.status).toBe(200);
    } finally {
      await site.stop();
    }
  });
});
