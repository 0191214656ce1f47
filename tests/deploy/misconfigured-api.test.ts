/**
 * A tenant whose publishing API does not have the paths the site asks for (a profile not written
 * yet, a wrong base address): every list answers 404. Readers get the tenant's branded "temporarily
 * unavailable" page, whole, with `Retry-After`, never "page not found" for the front page or a
 * broken half page; pages that need no list still render; the log says what to run.
 */
import { expect, it } from 'vitest';
import { siteOnMock } from './site-on-mock.ts';

const stack = siteOnMock((mock) => ({
  // The mock answers 404 under a prefix it does not serve: an API that spells its paths otherwise.
  PUBLISHING_BASE_URL: `${mock.publishingUrl}/v9`,
  UPSTREAM_CACHE_DIR: '',
}));
const { tenant, get } = stack;

it('answers list pages with the whole branded 503, not a 404 or a broken page', async () => {
  for (const path of ['/', '/categories', '/epaper', '/streams', '/plans']) {
    const page = await get(path);
    expect(page.status, path).toBe(503);
    expect(Number(page.headers['retry-after']), path).toBeGreaterThan(0);
    expect(page.text, path).toContain('Temporarily unavailable');
    expect(page.text, path).toContain('Daily Planet');
    expect(page.text.trimEnd().endsWith('</html>'), path).toBe(true);
  }
  const feed = await get('/rss.xml');
  expect(feed.status).toBe(503);
});

it('still renders a page that needs no list, and logs what to run', async () => {
  const login = await get('/login');
  expect(login.status).toBe(200);
  expect(login.text).toContain('<form');
  expect(login.text.trimEnd().endsWith('</html>')).toBe(true);
  expect(stack.site().printed).toContain(`npm run doctor -- ${tenant}`);
});
