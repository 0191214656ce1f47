/**
 * Tag pages and the RSS feed while the budget is spent, on a cold server (issue 35, "readers of a
 * tenant without a token are served stale pages rather than 503 wherever any copy exists"): after
 * one section page was read, a tag page answers with the section's posts that carry the tag, and
 * /rss.xml with the newest posts it listed, as a valid feed; both kept by no cache. A tenant's
 * first post page asks for the front page's pool too, so its other new posts stand in. A tag no
 * list showed, and the feed of a tenant nobody read, answer 503 as before.
 */
import { expect, it } from 'vitest';
import { send } from './http.ts';
import { siteOnMock } from './site-on-mock.ts';

const stack = siteOnMock({ PUBLISHING_PUBLIC_PER_MINUTE: '12', UPSTREAM_CACHE_DIR: '' });
const { tenant, get } = stack;

interface Listed {
  slug: string;
  title: string;
  published_at: string;
  tags: { name: string; slug: string }[];
}

/** The mock's answer, read directly (not through the site's budget). */
async function api<T>(path: string, as = tenant): Promise<T> {
  const reply = await send(`${stack.mock().publishingUrl}${path}`, { headers: { 'X-Tenant': as } });
  return (JSON.parse(reply.text) as { data: T }).data;
}
const asTenant = (id: string, path: string) =>
  send(`http://127.0.0.1:${stack.site().port}${path}`, { host: `${id}.localhost` });

it('answers a tag page and the feed from the posts a section showed while the budget is spent', async () => {
  // The largest section: its first page lists ten posts, most with tags.
  const categories = await api<{ slug: string; posts_count: number }[]>('/categories');
  const section = categories.sort((a, b) => b.posts_count - a.posts_count)[0]!.slug;
  const { posts } = await api<{ posts: Listed[] }>(`/categories/${section}?per_page=10`);
  expect((await get(`/categories/${section}`)).status).toBe(200);
  const tagged = posts.find((post) => post.tags.length > 0)!;
  const tag = tagged.tags[0]!;
  const carrying = posts.filter((post) => post.tags.some((one) => one.slug === tag.slug));
  const shown = new Set(posts.flatMap((post) => post.tags.map((one) => one.slug)));
  const unknownTag = (await api<{ slug: string }[]>('/tags')).find((one) => !shown.has(one.slug));
  expect(unknownTag).toBeDefined();
  // Another tenant: one post page read, nothing else.
  const [first, other] = await api<Listed[]>('/posts?per_page=50', 'harbour-times');
  expect((await asTenant('harbour-times', `/posts/${first!.slug}`)).status).toBe(200);

  // Posts nobody can have listed spend what is left of the minute's budget: until the site answers
  // 503 without asking the API (on a busy machine a slow answer is a 503 too, with room left).
  const calls = () => stack.mock().state.stats.publishing.total;
  let spent = false;
  for (let n = 0; n < 40 && !spent; n += 1) {
    const before = calls();
    spent = (await get(`/posts/no-such-story-${n}`)).status === 503 && calls() === before;
  }
  expect(spent).toBe(true);

  const tagPage = await get(`/tags/${tag.slug}`);
  expect(tagPage.status).toBe(200);
  expect(tagPage.text).toMatch(new RegExp(`<h1[^>]*>#${tag.name}</h1>`));
  for (const post of carrying) expect(tagPage.text).toContain(`/posts/${post.slug}"`);
  expect(tagPage.headers['x-robots-tag']).toBe('noindex');
  expect(tagPage.headers['cache-control']).toBe('no-store');

  const feed = await get('/rss.xml');
  expect(feed.status).toBe(200);
  expect(feed.headers['content-type']).toMatch(/xml/);
  expect(feed.headers['cache-control']).toBe('no-store');
  expect(feed.text).toMatch(/^<\?xml[^>]*>\s*<rss [^>]*version="2.0"/);
  expect(feed.text).toMatch(/<ttl>\d+<\/ttl>/);
  // The section's posts, newest first, each with the link and guid the whole feed gives it.
  const items = [...feed.text.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1]);
  const newest = [...posts].sort((a, b) => b.published_at.localeCompare(a.published_at));
  expect(items).toEqual(newest.map((post) => `http://${tenant}.localhost/posts/${post.slug}`));
  expect(feed.text).toContain(`<guid isPermaLink="true">${items[0]}</guid>`);

  // The other tenant's first post page read its front page's pool: its newest posts stand in.
  const standIn = await asTenant('harbour-times', `/posts/${other!.slug}`);
  expect(standIn.status).toBe(200);
  expect(standIn.text).toContain('data-partial-post');

  // A tag no list showed, and the feed of a tenant nothing was read for: 503 as before.
  const refused = await get(`/tags/${unknownTag!.slug}`);
  expect(refused.status).toBe(503);
  const otherFeed = await asTenant('alpine-post', '/rss.xml');
  expect(otherFeed.status).toBe(503);
  expect(otherFeed.headers['retry-after']).toMatch(/^\d+$/);
}, 60_000);
