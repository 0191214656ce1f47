/**
 * A post page while the budget is spent, on a cold server (issue 35, "readers of a tenant without a
 * token are served stale pages rather than 503 wherever any copy exists"): a post a list has shown
 * (the front page read it) answers 200 with its list entry, a notice that the full story is on its
 * way and a refresh, kept by no cache and not indexed; a section page answers with its stories
 * from the lists read; a post no list showed answers 503 as before.
 */
import { expect, it } from 'vitest';
import { editorOf } from './editor.ts';
import { send } from './http.ts';
import { siteOnMock } from './site-on-mock.ts';

const stack = siteOnMock({ PUBLISHING_PUBLIC_PER_MINUTE: '12', UPSTREAM_CACHE_DIR: '' });
const { tenant, get } = stack;

it('shows a listed post from its list entry while the budget is spent; an unlisted one is a 503', async () => {
  const list = await send(`${stack.mock().publishingUrl}/posts?per_page=50`, {
    headers: { 'X-Tenant': tenant },
  });
  const posts = (JSON.parse(list.text) as { data: { slug: string; title: string }[] }).data;
  const home = await get('/');
  expect(home.status).toBe(200);
  const listed = posts.find((post) => home.text.includes(`/posts/${post.slug}"`))!;
  expect(listed).toBeDefined();
  // Published after the front page was read (no change watcher here): no list the site read has it.
  const unlisted = await (
    await editorOf(stack.mock(), tenant)
  ).publish('A story no list has shown');

  // Posts nobody can have listed spend what is left of the minute's budget.
  let spent = false;
  for (let n = 0; n < 40 && !spent; n += 1) {
    spent = (await get(`/posts/no-such-story-${n}`)).status === 503;
  }
  expect(spent).toBe(true);

  const partial = await get(`/posts/${listed.slug}`);
  expect(partial.status).toBe(200);
  expect(partial.text).toMatch(new RegExp(`<h1[^>]*>${listed.title}</h1>`));
  expect(partial.text).toContain('The full story is on its way');
  expect(partial.text).toMatch(/<meta http-equiv="refresh" content="\d+">/);
  expect(partial.text).toContain('<meta name="robots" content="noindex">');
  expect(partial.headers['x-robots-tag']).toBe('noindex');
  expect(partial.headers['cache-control']).toBe('no-store');
  // Asked again: still the stand-in (no cache kept it as the post page).
  expect((await get(`/posts/${listed.slug}`)).text).toContain('data-partial-post');

  // Every section the front page's stories belong to: its page, or its stories from the lists read.
  const sections = [
    ...new Set([...home.text.matchAll(/href="\/categories\/([\w-]+)"/g)].map((m) => m[1]!)),
  ];
  const pages = await Promise.all(sections.map((section) => get(`/categories/${section}`)));
  expect(pages.map((page) => page.status)).toEqual(sections.map(() => 200));
  const standIns = pages.filter((page) => page.headers['x-robots-tag'] === 'noindex');
  expect(standIns.length).toBeGreaterThan(0);
  for (const page of standIns) expect(page.headers['cache-control']).toBe('no-store');

  const refused = await get(`/posts/${unlisted.slug}`);
  expect(refused.status).toBe(503);
  expect(refused.headers['retry-after']).toMatch(/^\d+$/);
}, 60_000);
