/**
 * A spent budget answers with the last copy, not a 503 (issue 35): a post page is invalidated (a
 * purge of everything, as a newsroom's), the tenant's anonymous budget is spent on pages nobody
 * asked for before, and the post page is asked for again.
 */
import { expect, it } from 'vitest';
import { send } from './http.ts';
import { STATUS_TOKEN } from './stack.ts';
import { siteOnMock } from './site-on-mock.ts';

const secret = 'deploy-suite-stale-pages-0123456789abcdef';
const stack = siteOnMock({
  PUBLISHING_PUBLIC_PER_MINUTE: '12',
  UPSTREAM_CACHE_DIR: '',
  PURGE_SECRETS: `daily-planet=${secret}`,
});
const { tenant, get } = stack;

it('serves an invalidated page while the budget is spent, never a 503', async () => {
  const list = await send(`${stack.mock().publishingUrl}/posts?per_page=1`, {
    headers: { 'X-Tenant': tenant },
  });
  const { slug, title } = (JSON.parse(list.text) as { data: { slug: string; title: string }[] })
    .data[0]!;
  const first = await get(`/posts/${slug}`);
  expect(first.status).toBe(200);

  const purged = await send(`http://127.0.0.1:${stack.site().port}/_purge`, {
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
  const status = await send(`http://127.0.0.1:${stack.site().port}/_status`, {
    host: `${tenant}.localhost`,
    headers: { Authorization: `Bearer ${STATUS_TOKEN}` },
  });
  const served = JSON.parse(status.text) as { totals: { staleBeyondWindow: number } };
  // Counted: the operator sees that readers got invalidated values because the budget was spent.
  expect(served.totals.staleBeyondWindow).toBeGreaterThan(0);
}, 60_000);
