/**
 * The shipped edge in front of a server, asked by strangers with hosts no tenant names and with
 * made-up subdomains of a wildcard host (`*.dailyplanet.example.com`): every such answer (pages,
 * 404s, robots.txt, pictures) must leave the edge's disk as it was, or a flood of made-up names fills
 * it and pushes the real sites' pages out. The real sites' pages are still kept.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, waitFor } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startEdge, startSite } from './stack.ts';
import type { Mock } from './stack.ts';

let mock: Mock;
let site: Service;
let edge: Service & { dir: string };

const viaEdge = (path: string, host: string) =>
  send(`http://127.0.0.1:${edge.port}${path}`, { host, headers: { 'Accept-Encoding': 'br' } });

/** How many answers the edge keeps on its disk. */
function keptOnDisk(): number {
  const count = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (sum, entry) => sum + (entry.isDirectory() ? count(join(dir, entry.name)) : 1),
      0,
    );
  return count(join(edge.dir, 'cache'));
}

beforeAll(async () => {
  mock = await startDocumentedMock();
  site = await startSite({ mock });
  edge = await startEdge([site.port]);
});

afterAll(async () => {
  await edge?.stop();
  await site?.stop();
  await mock?.close();
});

/** Asks `path` on each host twice; none may be answered from the edge, nor grow its disk. */
async function keptByNone(path: string, hosts: string[], status: number) {
  const before = keptOnDisk();
  for (const host of [...hosts, ...hosts]) {
    const reply = await viaEdge(path, host);
    expect(reply.status, `${host}${path}`).toBe(status);
    expect(reply.headers['x-cache-status'], `${host}${path}`).not.toBe('HIT');
  }
  expect(keptOnDisk(), path).toBe(before);
}

const madeUp = (n: number) =>
  Array.from({ length: n }, (_, i) => `made-up-${i}-${Date.now()}.example`);
const subdomains = (n: number) =>
  Array.from({ length: n }, (_, i) => `made-up-${i}-${Date.now()}.dailyplanet.example.com`);

describe('answers on hosts no tenant names exactly', () => {
  it('keeps none of a site’s pages, 404s or robots.txt asked on made-up hosts', async () => {
    await keptByNone('/daily-planet/', madeUp(3), 200);
    await keptByNone('/daily-planet/no-such-page', madeUp(3), 404);
    await keptByNone('/robots.txt?tenant=daily-planet', madeUp(3), 200);
    await keptByNone('/no-such-page', subdomains(3), 404);
    await keptByNone('/robots.txt', subdomains(3), 200);
    await keptByNone('/', subdomains(3), 200);
  });

  it('keeps one copy of a picture however many hosts and prefixes ask for it', async () => {
    const home = await viaEdge('/', 'daily-planet.localhost');
    const picture = /\/_img\/u\/[\w-]+\/\d+\/[\w-]+\.(?:avif|webp|jpg)/.exec(home.text)?.[0];
    expect(picture).toBeDefined();
    // Made once, then on the server's disk: answered before the site's routing.
    await waitFor('the picture kept', async () =>
      (await viaEdge(picture!, 'daily-planet.localhost')).headers['x-cache-status'] === 'HIT'
        ? true
        : undefined,
    );
    const before = keptOnDisk();
    for (const host of madeUp(3)) {
      for (const path of [picture!, `/daily-planet${picture!}`, `/made-up${picture!}`]) {
        expect([200, 404], `${host}${path}`).toContain((await viaEdge(path, host)).status);
      }
    }
    expect(keptOnDisk()).toBe(before);
    // Nor does another spelling of its address (an escape the site never writes) make a copy.
    const spelled = await viaEdge(picture!.replace('/_img/', '/%5Fimg/'), 'daily-planet.localhost');
    expect(spelled.status).toBe(404);
    expect(spelled.headers['cache-control']).toBe('no-store');
    await viaEdge(`/%64aily-planet${picture!}`, 'daily-planet.localhost');
    expect(keptOnDisk()).toBe(before);
  });

  it('still keeps the real sites’ pages', async () => {
    await waitFor('a real page kept at the edge', async () =>
      (await viaEdge('/', 'harbour-times.localhost')).headers['x-cache-status'] === 'HIT'
        ? true
        : undefined,
    );
    const reply = await viaEdge('/', 'dailyplanet.example.com');
    expect(reply.headers['cache-control']).toMatch(/^public, .*s-maxage=/);
  });
});
