/**
 * A post's related posts come from what lists have shown (issue 35, cold start): after the front
 * page (its pool of the 50 newest posts), a post page reads its post and comments, not two more
 * lists for its related posts, and still shows three of the same section.
 */
import { expect, it } from 'vitest';
import { editorOf } from './editor.ts';
import { send } from './http.ts';
import { siteOnMock } from './site-on-mock.ts';

const stack = siteOnMock({ UPSTREAM_CACHE_DIR: '' });
const { tenant, get } = stack;

it('shows related posts of the same section without a list read of their own', async () => {
  const list = await send(`${stack.mock().publishingUrl}/posts?per_page=50`, {
    headers: { 'X-Tenant': tenant },
  });
  const posts = (JSON.parse(list.text) as { data: { slug: string; category?: { slug: string } }[] })
    .data;
  // A post whose section has at least three other posts among the newest fifty.
  const post = posts.find(
    (one) => posts.filter((other) => other.category?.slug === one.category?.slug).length >= 4,
  )!;
  expect((await get('/')).status).toBe(200);
  const editor = await editorOf(stack.mock(), tenant);
  const before = (await editor.tenantStats())[tenant] ?? {};

  const page = await get(`/posts/${post.slug}`);
  expect(page.status).toBe(200);
  const related = page.text.slice(page.text.indexOf('id="related-heading"'));
  const shown = posts.filter(
    (other) =>
      other.slug !== post.slug &&
      other.category?.slug === post.category?.slug &&
      related.includes(`/posts/${other.slug}"`),
  );
  expect(shown).toHaveLength(3);
  const after = (await editor.tenantStats())[tenant] ?? {};
  const lists = (stats: Record<string, number>) =>
    Object.entries(stats)
      .filter(([route]) => route.startsWith('GET /posts?'))
      .reduce((sum, [, n]) => sum + n, 0);
  expect(lists(after)).toBe(lists(before));
  expect(after['GET /posts/{slug}']).toBe((before['GET /posts/{slug}'] ?? 0) + 1);
}, 60_000);
