import { beforeEach, describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  InvalidResponseError,
  NetworkError,
  NoRouteError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
  UpstreamServerError,
  ValidationError,
} from '../../src/lib/upstream/errors.ts';
import { classify } from '../../src/lib/failures/classify.ts';
import type { Upstream } from '../../src/lib/upstream/runtime.ts';
import { ctl, freshUpstream, PASSWORD, useMock } from './harness.ts';
import { publishingTestClient } from './operations.ts';
import type { PublishingTestClient } from './operations.ts';

const mock = useMock({ reset: true });
let up: Upstream;
let pub: PublishingTestClient;

beforeEach(() => {
  up = freshUpstream().up;
  pub = client('daily-planet');
});

function client(tenantId: string, token?: string) {
  return publishingTestClient({
    tenantId,
    baseUrl: mock.publishingUrl,
    upstream: up,
    token,
    iframeHosts: [new URL(mock.publishingUrl).hostname],
  });
}

async function signIn(role: 'admin' | 'editor' | 'subscriber' | 'reader', tenant = 'daily-planet') {
  const { token } = await client(tenant).login(`${role}@masthead.test`, PASSWORD);
  return client(tenant, token);
}

describe('publishing: every operation', () => {
  it('auth: login, me, logout', async () => {
    const result = await pub.login('editor@masthead.test', PASSWORD);
    expect(result.token).toBeTruthy();
    expect(result.user.email).toBe('editor@masthead.test');
    const editor = client('daily-planet', result.token);
    expect((await editor.me()).roles).toContain('editor');
    await editor.logout();
    await expect(editor.me({ fresh: true })).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('auth: register a subscriber; a duplicate e-mail is a ValidationError', async () => {
    const email = `new-${Date.now()}@example.test`;
    const created = await pub.register({ name: 'New Reader', email, password: 'long-enough-pw' });
    expect(created.token).toBeTruthy();
    const error = await pub
      .register({ name: 'Again', email, password: 'long-enough-pw' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields['email']?.[0]).toMatch(/taken/);
  });

  it('auth: wrong credentials → ValidationError on email', async () => {
    const error = await pub.login('editor@masthead.test', 'wrong').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).fields)).toContain('email');
  });

  it('posts: list with filters and pages, get one', async () => {
    const page = await pub.listPosts({ page: 2, perPage: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.page).toMatchObject({ current: 2, perPage: 5 });
    expect(page.page.total).toBeGreaterThan(5);
    const news = await pub.listPosts({ category: 'news', perPage: 50 });
    expect(news.items.every((p) => p.category?.slug === 'news')).toBe(true);
    const featured = await pub.listPosts({ featured: true });
    expect(featured.items.every((p) => p.is_featured === true)).toBe(true);
    const first = page.items[0];
    if (!first) throw new Error('no posts');
    const post = await pub.getPost(first.slug);
    expect(post.slug).toBe(first.slug);
    expect(post.content.length).toBeGreaterThan(0);
    expect(post.content).not.toMatch(/<script/i);
    const tag = post.tags[0];
    if (tag) {
      const tagged = await pub.listPosts({ tag: tag.name });
      expect(tagged.items.length).toBeGreaterThan(0);
    }
    const search = await pub.listPosts({ search: first.title.split(' ')[0] ?? '' });
    expect(search.items.length).toBeGreaterThan(0);
  });

  it('posts: create, update, delete with roles; errors mapped', async () => {
    const editor = await signIn('editor');
    const created = await editor.createPost({
      title: `Integration ${Date.now()}`,
      content: '<p>Body</p>',
      status: 'published',
    });
    expect(created).toMatchObject({ status: 'published' });
    expect(created.slug).toBeTruthy();
    const fetched = await pub.getPost(created.slug ?? '');
    expect(fetched.title).toBe(created.title);

    const updated = await editor.updatePost(created.id, { status: 'draft' });
    expect(updated.status).toBe('draft');
    await expect(pub.getPost(created.slug ?? '', { fresh: true })).rejects.toBeInstanceOf(
      NotFoundError,
    );

    await expect(pub.createPost({ title: 'Anon' })).rejects.toBeInstanceOf(UnauthenticatedError);
    const reader = await signIn('reader');
    await expect(reader.createPost({ title: 'Nope' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(editor.createPost({ title: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(editor.deletePost(created.id)).rejects.toBeInstanceOf(ForbiddenError);

    const admin = await signIn('admin');
    await admin.deletePost(created.id);
    await expect(admin.deletePost(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('posts: unknown slug → NotFoundError', async () => {
    await expect(pub.getPost('no-such-post')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('categories and tags: list and get', async () => {
    const categories = await pub.listCategories();
    expect(categories.length).toBeGreaterThan(0);
    const category = categories[0];
    if (!category) throw new Error('no category');
    const detail = await pub.getCategory(category.slug, { perPage: 3 });
    expect(detail.category.slug).toBe(category.slug);
    expect(detail.posts.items.length).toBeLessThanOrEqual(3);
    expect(detail.posts.page.total).toBe(category.posts_count);
    await expect(pub.getCategory('nope')).rejects.toBeInstanceOf(NotFoundError);

    const tags = await pub.listTags();
    const tag = tags[0];
    if (!tag) throw new Error('no tag');
    const tagged = await pub.getTag(tag.slug, { perPage: 2 });
    expect(tagged.tag.slug).toBe(tag.slug);
    expect(tagged.posts.items.length).toBeGreaterThan(0);
    await expect(pub.getTag('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('plans: list and get', async () => {
    const plans = await pub.listPlans();
    expect(plans.length).toBeGreaterThan(0);
    const plan = await pub.getPlan(plans[0]?.slug ?? '');
    expect(plan.subscribe_url).toMatch(/^https?:\/\//);
    expect(plan.price).toMatch(/^\d+(\.\d+)?$/);
    await expect(pub.getPlan('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('e-paper: list and get; free editions have pages', async () => {
    const editions = await pub.listEditions({ perPage: 50 });
    const free = editions.items.find((e) => e.is_free);
    if (!free) throw new Error('no free edition');
    const edition = await pub.getEdition(free.slug);
    expect(edition.pages.length).toBeGreaterThan(0);
    await expect(pub.getEdition('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('streams: list and get, embed kept for the allowed player host', async () => {
    const streams = await pub.listStreams();
    expect(streams.items[0]?.status).toBe('live');
    const stream = await pub.getStream(streams.items[0]?.slug ?? '');
    expect(stream.embed_code).toMatch(/^<iframe src="http/);
    expect(stream.embed_code).not.toMatch(/onload|<script/);
    await expect(pub.getStream('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('comments: list, create (signed in / guest), moderate', async () => {
    const slug = (await pub.listPosts({ perPage: 1 })).items[0]?.slug ?? '';
    const before = await pub.listComments(slug);
    const reader = await signIn('reader');
    const mine = await reader.createComment(slug, { content: 'Signed-in comment' });
    expect(mine.comment.status).toBe('approved');

    const guest = await pub.createComment(slug, {
      content: 'Guest comment',
      author_name: 'Guest',
      author_email: 'guest@example.test',
    });
    expect(guest.comment.status).toBe('pending');
    expect(guest.message).toMatch(/moderation/);
    await expect(pub.createComment(slug, { content: 'No name' })).rejects.toBeInstanceOf(
      ValidationError,
    );

    const editor = await signIn('editor');
    const pending = await editor.listPendingComments();
    expect(pending.items.some((c) => c.id === guest.comment.id)).toBe(true);
    await expect(reader.listPendingComments()).rejects.toBeInstanceOf(ForbiddenError);
    const approved = await editor.approveComment(guest.comment.id);
    expect(approved.status).toBe('approved');

    const after = await pub.listComments(slug, {}, { fresh: true });
    expect(after.page.total).toBe((before.page.total ?? 0) + 2);
  });

  it('unknown tenant → NoRouteError, an outage to fix here; a token never crosses tenants', async () => {
    const error = await client('no-such-tenant')
      .listPosts()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoRouteError);
    expect(classify(error)).toEqual({ kind: 'outage' });
    const { token } = await pub.login('editor@masthead.test', PASSWORD);
    await expect(client('harbour-times', token).me()).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe('publishing: failures map to typed errors', () => {
  it('5xx → UpstreamServerError after 2 retries', async () => {
    await ctl.faults(mock, { service: 'publishing', errorRate: 1 });
    await expect(pub.listPlans()).rejects.toBeInstanceOf(UpstreamServerError);
    expect((await ctl.stats(mock)).publishing.routes['GET /plans']).toBe(3);
  });

  it('forced 429 → RateLimitedError, not retried, then fails fast locally', async () => {
    await ctl.faults(mock, { service: 'publishing', force429: true });
    const error = await pub.listPlans().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    const again = await pub.listTags().catch((e: unknown) => e);
    expect(again).toMatchObject({ name: 'RateLimitedError', local: true });
    expect((await ctl.stats(mock)).publishing.total).toBe(1);
  });

  it('malformed JSON → InvalidResponseError', async () => {
    await ctl.faults(mock, { service: 'publishing', malformed: true });
    await expect(pub.listPosts()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('down → NetworkError', async () => {
    await ctl.faults(mock, { service: 'publishing', down: true });
    await expect(pub.listPosts()).rejects.toBeInstanceOf(NetworkError);
  });

  it('slow → TimeoutError', async () => {
    await ctl.faults(mock, { service: 'publishing', latencyMs: 500 });
    up = freshUpstream({ http: { timeoutMs: 100 } }).up;
    await expect(client('daily-planet').listPosts()).rejects.toBeInstanceOf(TimeoutError);
  });
});
