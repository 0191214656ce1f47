/**
 * A restart is not a cold start (issue 35): one `npm start` without Redis reads a post page, stops,
 * and a new one on the same `UPSTREAM_CACHE_DIR` answers the same page without asking the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from './http.ts';
import { startDocumentedMock, startSite, type Mock } from './stack.ts';

let mock: Mock;
const dir = mkdtempSync(join(tmpdir(), 'masthead-deploy-restart-'));
const tenant = 'daily-planet';

beforeAll(async () => {
  mock = await startDocumentedMock();
}, 60_000);

afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The mock's publishing calls for `tenant`, all operations together. */
async function callsOf(): Promise<number> {
  const stats = await send(`${mock.controlUrl}/stats/tenants`);
  const counts = (JSON.parse(stats.text) as Record<string, Record<string, number>>)[tenant] ?? {};
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

it('answers a page it read before the restart without an upstream call', async () => {
  const list = await send(`${mock.publishingUrl}/posts?per_page=1`, {
    headers: { 'X-Tenant': tenant },
  });
  const { slug, title } = (JSON.parse(list.text) as { data: { slug: string; title: string }[] })
    .data[0]!;
  const env = { UPSTREAM_CACHE_DIR: dir };
  const before = await startSite({ mock, env });
  const read = (port: number) =>
    send(`http://127.0.0.1:${port}/posts/${slug}`, { host: `${tenant}.localhost` });
  try {
    expect((await read(before.port)).status).toBe(200);
  } finally {
    await before.stop();
  }
  const after = await startSite({ mock, env });
  try {
    const calls = await callsOf();
    const page = await read(after.port);
    expect(page.status).toBe(200);
    expect(page.text).toContain(title);
    expect(await callsOf()).toBe(calls);
  } finally {
    await after.stop();
  }
}, 60_000);
