import { afterEach, describe, expect, it } from 'vitest';
import {
  categoryDetailSchema,
  commentListSchema,
  editionListSchema,
  meSchema,
  planListSchema,
  postListSchema,
  singlePostSchema,
  streamListSchema,
} from '../../../src/lib/publishing/schema.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { InvalidResponseError, NotFoundError } from '../../../src/lib/upstream/errors.ts';
import { pageInfo, parseOrThrow } from '../../../src/lib/upstream/parse.ts';
import { json, startServer, testUpstream } from '../upstream/helpers.ts';
import type { TestServer } from '../upstream/helpers.ts';

const post = {
  id: 1,
  title: 'Hello',
  slug: 'hello',
  excerpt: 'Hi',
  content: '<p>x</p>',
  status: 'published',
  published_at: '2026-11-20T08:30:00+00:00',
  author: { id: 3, name: 'Ada' },
  category: { id: 2, name: 'News', slug: 'news' },
  tags: [{ id: 9, name: 'Local', slug: 'local' }],
};
const ctx = { service: 'publishing' as const, operation: 'test' };
type Pub = ReturnType<typeof publishingClient>;

describe('publishing schemas are lenient', () => {
  it.each([
    ['in a data envelope', { data: post }],
    ['without an envelope', post],
  ])('a post %s', (_name, body) => {
    expect(parseOrThrow(singlePostSchema, body, ctx)).toMatchObject({
      slug: 'hello',
      title: 'Hello',
    });
  });

  it('reads tags given as plain names, with a slug made from the name', () => {
    const parsed = parseOrThrow(
      singlePostSchema,
      { ...post, tags: ['Harbour', 'Zürich Süd'] },
      ctx,
    );
    expect(parsed.tags).toEqual([
      { name: 'Harbour', slug: 'harbour' },
      { name: 'Zürich Süd', slug: 'zurich-sud' },
    ]);
  });

  it('keeps unknown fields', () => {
    const parsed = parseOrThrow(singlePostSchema, { data: { ...post, reading_time: 4 } }, ctx);
    expect(parsed['reading_time']).toBe(4);
  });

  it('coerces numeric strings and string booleans', () => {
    const parsed = parseOrThrow(
      editionListSchema,
      {
        data: [{ title: 'E', slug: 'e', page_count: '12', is_free: '1', requires_subscription: 0 }],
      },
      ctx,
    );
    expect(parsed.items[0]).toMatchObject({
      page_count: 12,
      is_free: true,
      requires_subscription: false,
      pages: [],
    });
  });

  it.each([
    [
      'Laravel paginator',
      {
        data: [post],
        meta: { current_page: '2', last_page: 5, per_page: 10, total: 42 },
        links: {},
      },
      { current: 2, last: 5, perPage: 10, total: 42 },
    ],
    ['bare array', [post, post], { current: 1, last: 1, perPage: 2, total: 2 }],
    ['data without meta', { data: [post] }, { current: 1, last: 1, perPage: 1, total: 1 }],
    [
      "a raw ->paginate() in a data envelope (response()->json(['data' => $posts]))",
      { data: { current_page: 2, data: [post], last_page: 5, per_page: 10, total: 42 } },
      { current: 2, last: 5, perPage: 10, total: 42 },
    ],
    [
      'meta with only total',
      { data: [post], meta: { total: 25 } },
      { current: 1, last: 3, perPage: 10, total: 25 },
    ],
    [
      'simplePaginate with a next page (no total: the next page is the last known)',
      {
        data: [post],
        meta: { current_page: 2, per_page: 10, from: 11, to: 20, path: '/posts' },
        links: { first: '/posts?page=1', last: null, prev: '/posts?page=1', next: '/posts?page=3' },
      },
      { current: 2, last: 3, perPage: 10 },
    ],
    [
      'simplePaginate on its last page',
      {
        data: [post],
        meta: { current_page: 4, per_page: 10, from: 31, to: 31, path: '/posts' },
        links: { first: '/posts?page=1', last: null, prev: '/posts?page=3', next: null },
      },
      { current: 4, last: 4, perPage: 10 },
    ],
    [
      'a raw ->simplePaginate()',
      { current_page: 1, data: [post], next_page_url: '/posts?page=2', per_page: 10, to: 10 },
      { current: 1, last: 2, perPage: 10 },
    ],
  ])('a post list as %s', (_name, body, expected) => {
    const list = parseOrThrow(postListSchema, body, ctx);
    expect(list.items).toHaveLength(Array.isArray(body) ? 2 : 1);
    expect(
      pageInfo(list.meta, list.items.length, {
        perPage: Array.isArray(body) || !('meta' in body) ? undefined : 10,
      }),
    ).toEqual(expected);
  });

  it('reads a null flag or count (a nullable column) as not sent', () => {
    const [listed] = parseOrThrow(postListSchema, [{ ...post, is_featured: null }], ctx).items;
    expect(listed?.is_featured).toBeUndefined();
    const [edition] = parseOrThrow(
      editionListSchema,
      [{ title: 'E', slug: 'e', is_free: null, requires_subscription: null, page_count: null }],
      ctx,
    ).items;
    expect(edition).toMatchObject({ is_free: false, requires_subscription: false });
    const [stream] = parseOrThrow(
      streamListSchema,
      [{ title: 'S', slug: 's', is_live: null }],
      ctx,
    ).items;
    expect(stream?.is_live).toBe(false);
    const user = parseOrThrow(
      meSchema,
      { data: { id: 1, name: 'A', has_active_subscription: null } },
      ctx,
    );
    expect(user.has_active_subscription).toBeUndefined();
  });

  it('tolerates null category, missing tags and null excerpt', () => {
    const list = parseOrThrow(
      postListSchema,
      [{ ...post, category: null, tags: undefined, excerpt: null }],
      ctx,
    );
    expect(list.items[0]).toMatchObject({ category: null, tags: [], excerpt: '' });
  });

  it('plan prices as numbers or strings, features as strings or objects', () => {
    const plans = parseOrThrow(
      planListSchema,
      {
        data: [
          {
            name: 'P',
            slug: 'p',
            price: 9.5,
            currency: 'EUR',
            interval: 'month',
            features: ['A', { name: 'B' }],
          },
        ],
      },
      ctx,
    );
    expect(plans.items[0]).toMatchObject({ price: '9.50', features: ['A', 'B'] });
  });

  it('nested comment replies', () => {
    const list = parseOrThrow(
      commentListSchema,
      {
        data: [
          {
            id: 1,
            content: 'a',
            author_name: 'x',
            created_at: null,
            replies: [{ id: 2, content: 'b', author_name: 'y', parent_id: 1, replies: [] }],
          },
        ],
        meta: { total: 1 },
      },
      ctx,
    );
    expect(list.items[0]?.replies[0]).toMatchObject({ id: 2, parent_id: 1, replies: [] });
  });

  it('category detail with posts as array or paginator', () => {
    const a = parseOrThrow(
      categoryDetailSchema,
      {
        data: {
          category: { id: 1, name: 'N', slug: 'n', posts_count: '3' },
          posts: [post],
          meta: { total: 3 },
        },
      },
      ctx,
    );
    const b = parseOrThrow(
      categoryDetailSchema,
      { category: { id: 1, name: 'N', slug: 'n' }, posts: { data: [post], meta: { total: 3 } } },
      ctx,
    );
    expect(a.posts.items).toHaveLength(1);
    expect(a.category.posts_count).toBe(3);
    expect(b.posts.meta?.total).toBe(3);
  });

  it('rejects a wrong shape with a readable summary', () => {
    const error = (() => {
      try {
        parseOrThrow(singlePostSchema, { data: { id: 1 } }, ctx);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toContain('title');
  });
});

describe('publishing client over the wire', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('maps an unparseable body to InvalidResponseError', async () => {
    server = await startServer((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[{"id":1,"title":"Trunc');
    });
    const { up } = testUpstream();
    const pub = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: up,
    });
    await expect(pub.listPosts()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it.each(['..', '.'])(
    'sends nothing for a slug %s, a dot segment that would steer the call elsewhere, token and all',
    async (slug) => {
      // Before: `POST {base}/comments` (the list's route) with the reader's token, `GET {base}/posts`.
      server = await startServer((_r, res) => json(res, 201, { data: {} }));
      const pub = publishingClient({
        tenantId: 'daily-planet',
        baseUrl: `${server.baseUrl}/api/v1`,
        upstream: testUpstream().up,
        token: 'reader-token',
      });
      const input = { content: 'Hello', author_name: 'Ann', author_email: 'a@example.com' };
      await expect(pub.createComment(slug, input)).rejects.toBeInstanceOf(NotFoundError);
      await expect(pub.getPost(slug)).rejects.toBeInstanceOf(NotFoundError);
      expect(server.seen).toEqual([]);
    },
  );

  it('maps a schema mismatch to InvalidResponseError and logs it', async () => {
    server = await startServer((_r, res) => json(res, 200, { data: [{ nope: true }] }));
    const { up, lines } = testUpstream();
    const pub = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: up,
    });
    await expect(pub.listPosts()).rejects.toBeInstanceOf(InvalidResponseError);
    expect(lines.some((l) => l.includes('InvalidResponseError'))).toBe(true);
  });

  it.each([
    ['posts.list', (pub: Pub) => pub.listPosts()],
    ['comments.list', (pub: Pub) => pub.listComments('hello')],
    ['plans.list', async (pub: Pub) => ({ items: await pub.listPlans() })],
  ])('%s: one odd record is left out with one warning, the rest shown', async (operation, list) => {
    const comment = { id: 5, content: 'Hi', author_name: 'Bo', replies: [] };
    const plan = {
      name: 'Digital',
      slug: 'digital',
      price: '9.00',
      currency: 'EUR',
      interval: 'month',
    };
    const good = { 'posts.list': post, 'comments.list': comment, 'plans.list': plan }[operation];
    server = await startServer((_r, res) =>
      json(res, 200, { data: [good, { id: 77, slug: 'odd', title: null }, good] }),
    );
    const { up, lines } = testUpstream();
    const pub = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: up,
    });
    expect((await list(pub)).items).toHaveLength(2);
    const warnings = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'upstream_item_dropped',
        tenant: 'daily-planet',
        operation,
        index: 1,
        id: 77,
        issues: expect.stringMatching(/^(title|content|name): /) as unknown,
      }),
    ]);
    expect(up.metrics.getStatus().totals.droppedItems).toBe(1);
  });

  it('sanitizes post content on its way into the cache', async () => {
    server = await startServer((_r, res) =>
      json(res, 200, {
        data: { ...post, content: '<p onclick="x()">ok</p><script>alert(1)</script>' },
      }),
    );
    const { up } = testUpstream();
    const pub = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: up,
    });
    expect((await pub.getPost('hello')).content).toBe('<p>ok</p>');
    expect((await pub.getPost('hello')).content).toBe('<p>ok</p>');
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]?.headers['x-tenant']).toBe('daily-planet');
  });

  it('keeps no body of a listed post: an API that sends them costs neither sanitizing nor cache', async () => {
    const body = `<p>${'A long story. '.repeat(4000)}</p>`;
    server = await startServer((_r, res) =>
      json(res, 200, { data: [{ ...post, content: body }], meta: { total: 1 } }),
    );
    const { up } = testUpstream();
    const pub = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: up,
    });
    const [item] = (await pub.listPosts()).items;
    expect(item?.title).toBe(post.title);
    expect(item).not.toHaveProperty('content');
  });

  it('sends public reads without the user token (the e-paper list too), personal reads with it', async () => {
    server = await startServer((r, res) =>
      r.url.startsWith('/api/v1/auth/me')
        ? json(res, 200, { data: { id: 1, name: 'Sam' } })
        : json(res, 200, { data: [] }),
    );
    const { up } = testUpstream();
    const pub = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: up,
      token: 'tok',
    });
    await pub.listPosts();
    await pub.listEditions();
    await pub.me();
    expect(server.seen[0]?.headers['authorization']).toBeUndefined();
    expect(server.seen[1]?.headers['authorization']).toBeUndefined();
    expect(server.seen[2]?.headers['authorization']).toBe('Bearer tok');
    // With the tenant's read token, the public reads carry that one instead.
    const withReadToken = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: server.baseUrl,
      upstream: testUpstream().up,
      serviceToken: 'read',
    });
    await withReadToken.listEditions();
    expect(server.seen[3]?.headers['authorization']).toBe('Bearer read');
  });
});
