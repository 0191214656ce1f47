/**
 * A restart inside the upstream's minute is not a new minute: one `npm start` without Redis spends
 * its share of the publishing limit on cold post pages, stops, and the next one on the same
 * `UPSTREAM_CACHE_DIR` reads more cold pages in the same minute. The upstream counted the first
 * server's calls; the second must count them too and answer "busy" itself, never make the API
 * answer 429.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startSite, type Mock } from './stack.ts';

let mock: Mock;
const dir = mkdtempSync(join(tmpdir(), 'masthead-deploy-restart-budget-'));
const tenant = 'daily-planet';

beforeAll(async () => {
  mock = await startDocumentedMock();
}, 60_000);

afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The mock's publishing calls, and its 429s among them. */
async function calls(): Promise<{ total: number; rateLimited: { total: number } }> {
  const stats = JSON.parse((await send(`${mock.controlUrl}/stats`)).text) as {
    publishing: { total: number; rateLimited: { total: number } };
  };
  return stats.publishing;
}

/**
 * Searches new words in turn (each one a call upstream), `count` of them or until the server says
 * "busy"; the statuses readers got.
 */
async function search(site: Service, from: number, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = from; i < from + count && !statuses.includes(503); i += 1) {
    const page = await send(`http://127.0.0.1:${site.port}/search?q=restart${i}`, {
      host: `${tenant}.localhost`,
    });
    statuses.push(page.status);
  }
  return statuses;
}

it('a restarted server does not spend the minute a second time', async () => {
  const env = { UPSTREAM_CACHE_DIR: dir };

  const before = await startSite({ mock, env });
  try {
    // Until the server's own budget says "busy" (503): the upstream counted all it sent.
    expect(await search(before, 0, 100)).toContain(503);
  } finally {
    await before.stop();
  }
  const sent = (await calls()).total;
  const after = await startSite({ mock, env });
  try {
    // Twenty readers at once, each searching something new.
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await search(after, 100 + i, 1))[0]),
    );
    // "Busy" from the server itself, no call the upstream's minute has no room for (the mock's
    // X-RateLimit-Remaining would have stopped it after a few; the contract does not promise it).
    expect(statuses.filter((status) => status !== 503)).toEqual([]);
    expect(await calls()).toMatchObject({ total: sent, rateLimited: { total: 0 } });
  } finally {
    await after.stop();
  }
}, 120_000);
