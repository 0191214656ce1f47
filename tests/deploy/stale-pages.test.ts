/**
 * A spent budget answers with the last copy, not a 503 (issue 35): a post page is invalidated (a
 * purge of everything, as a newsroom's), the tenant's anonymous budget is spent on pages nobody
 * asked for before, and the post page is asked for again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startSite, STATUS_TOKEN, type Mock } from './stack.ts';

let mock: Mock;
let site: Service;
const tenant = 'daily-planet';
const secret = 'deploy-suite-stale-pages-0123456789abcdef';
const get = (path: string) =>
  send(`http://127.0.0.1:${site.port}${path}`, { host: `${tenant}.localhost` });

beforeAll(async () => {
  mock = await startDocumentedMock();
  site = await startSite({
    mock,
    env: {
      PUBLISHING_PUBLIC_PER_MINUTE: '12',
      UPSTREAM_CACHE_DIR: '',
      PURGE_SECRETS: `${tenant}=${secret}`,
    },
  });
}, 60_000);

afterAll(async () => {
  await site?.stop();
  await mock?.close();
});

it('serves an invalidated page while the budget is spent, never a 503', async () => {
  const list = await send(`${mock.publishingUrl}/posts?per_page=1`, {
    headers: { 'X-Tenant': tenant },
  });
  const { slug, title } = (JSON.parse(list.text) as { data: { slug: string; title: string }[] })
    .data[0]!;
  const first = await get(`/posts/${slug}`);
  expect(first.status).toBe(200);

  const purged = await send(`http://127.0.0.1:${site.port}/_purge`, {
    method: 'POST',
    host: `${tenant}.localhost`,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
    body: JSON.stringify({ everything: true }),
  });
  expect(purged.status).toBe(202);
  // Searches nobody made before spend what is left of the minute's budget.
  let spent = false;
  for (let n = 0; n < 40 && !spent; n += 1) {
    spent = (await get(`/search?q=harbour${n}`)).status === 503;
  }
  expect(spent).toBe(true);

  const again = await get(`/posts/${slug}`);
  expect(again.status).toBe(200);
  expect(again.text).toContain(title);
  const status = await send(`http://127.0.0.1:${site.port}/_status`, {
    host: `${tenant}.localhost`,
    headers: { Authorization: `Bearer ${STATUS_TOKEN}` },
  });
  const served = JSON.parse(status.text) as { totals: { staleBeyondWindow: number } };
  // Counted: the operator sees that readers got invalidated values because the budget was spent.
  expect(served.totals.staleBeyondWindow).toBeGreaterThan(0);
}, 60_000);
