import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError, useMock } from './helpers.ts';
import { one, page, PostItemSchema, PostSchema } from './schemas.ts';

const t = useMock();
const Page = page(PostItemSchema);

describe('GET /posts', () => {
  it('lists published posts newest first with default per_page 10 and the paginator envelope', async () => {
    const body = expectBody(await t.pub('/posts'), 200, Page);
    expect(body.data).toHaveLength(10);
    expect(body.data.every((p) => p.status === 'published')).toBe(true);
    const dates = body.data.map((p) => p.published_at ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.meta).toMatchObject({ current_page: 1, per_page: 10, from: 1, to: 10 });
    expect(body.meta.total).toBeGreaterThanOrEqual(100);
    expect(body.links.next).toContain('page=2');
  });

  it.each([
    [{ per_page: '500' }, 50],
    [{ per_page: '3' }, 3],
  ])('clamps per_page %j to %i', async (q, expected) => {
    const body = expectBody(await t.pub(`/posts?${new URLSearchParams(q).toString()}`), 200, Page);
    expect(body.meta.per_page).toBe(expected);
    expect(body.data).toHaveLength(expected);
  });

  it.each([
    ['per_page=0', 'per_page', 'The per page field must be at least 1.'],
    ['page=abc', 'page', 'The page field must be an integer.'],
    ['featured=maybe', 'featured', 'The featured field must be true or false.'],
  ])('rejects %s with 422', async (q, field, message) => {
    expectError(await t.pub(`/posts?${q}`), 422, message, { [field]: [message] });
  });

  it('paginates past the end to an empty page', async () => {
    const body = expectBody(await t.pub('/posts?page=999'), 200, Page);
    expect(body.data).toEqual([]);
    expect(body.meta.from).toBeNull();
  });

  it('filters by category slug, tag name or slug, featured and search', async () => {
    const sport = expectBody(await t.pub('/posts?category=sport&per_page=50'), 200, Page);
    expect(sport.data.length).toBeGreaterThan(0);
    expect(sport.data.every((p) => p.category?.slug === 'sport')).toBe(true);

    const byName = expectBody(await t.pub('/posts?tag=city%20hall&per_page=50'), 200, Page);
    const bySlug = expectBody(await t.pub('/posts?tag=city-hall&per_page=50'), 200, Page);
    expect(byName.meta.total).toBeGreaterThan(0);
    expect(bySlug.meta.total).toBe(byName.meta.total);
    expect(byName.data.every((p) => p.tags.some((x) => x.slug === 'city-hall'))).toBe(true);

    const featured = expectBody(await t.pub('/posts?featured=1&per_page=50'), 200, Page);
    expect(featured.data.length).toBeGreaterThan(0);
    expect(featured.data.every((p) => p.is_featured)).toBe(true);
    const notFeatured = expectBody(await t.pub('/posts?featured=false'), 200, Page);
    expect(notFeatured.data.every((p) => !p.is_featured)).toBe(true);

    const some = expectBody(await t.pub('/posts?page=3'), 200, Page).data[0];
    const word = some?.title.split(' ').slice(0, 3).join(' ') ?? '';
    const search = expectBody(
      await t.pub(`/posts?search=${encodeURIComponent(word.toUpperCase())}`),
      200,
      Page,
    );
    expect(search.data.map((p) => p.id)).toContain(some?.id);
    // Search covers the content: the welcome post's lead is only in its body.
    const inContent = expectBody(
      await t.pub('/posts?search=eighty%20years%20in%20print'),
      200,
      Page,
    );
    expect(inContent.data.map((p) => p.slug)).toEqual(['welcome-to-our-new-website']);

    const unknown = expectBody(await t.pub('/posts?category=no-such-category'), 200, Page);
    expect(unknown.meta.total).toBe(0);
  });
});

describe('GET /posts/{slug}', () => {
  it('returns the full post with content, author, category and tags', async () => {
    const { data } = expectBody(
      await t.pub('/posts/welcome-to-our-new-website'),
      200,
      one(PostSchema),
    );
    expect(data.content).toContain('<h2>');
    expect(data.category?.slug).toBe('news');
    expect(data.cover_image_url).toMatch(
      new RegExp(`^${new URL(t.mock.publishingUrl).origin}/media/`),
    );
  });

  it('carries every sanitizer trap in the welcome post', async () => {
    const { data } = expectBody(
      await t.pub('/posts/welcome-to-our-new-website'),
      200,
      one(PostSchema),
    );
    expect(data.content).toContain(`<script>document.title='XSS'</script>`);
    expect(data.content).toContain('onerror=');
    expect(data.content).toContain('href="javascript:');
    expect(data.content).toContain('<iframe src="https://evil.example');
  });

  it('answers 404 Post not found. for drafts and unknown slugs', async () => {
    const draft = t.mock.state.publishing.sites
      .get('daily-planet')
      ?.posts.find((p) => p.status === 'draft');
    expect(draft).toBeDefined();
    expectError(await t.pub(`/posts/${draft?.slug}`), 404, 'Post not found.');
    expectError(await t.pub('/posts/no-such-post'), 404, 'Post not found.');
  });
});

describe('writing posts', () => {
  const Created = one(
    z.strictObject({ id: z.number(), title: z.string(), slug: z.string(), status: z.string() }),
  );

  it.each(['editor', 'admin'] as const)(
    '%s creates a draft by default and a published post on request',
    async (role) => {
      const token = await t.login(role);
      const draft = expectBody(
        await t.pub('/posts', { method: 'POST', token, body: { title: `Draft by ${role}` } }),
        201,
        Created,
      );
      expect(draft.data).toMatchObject({ status: 'draft', slug: `draft-by-${role}` });
      expect((await t.pub(`/posts/${draft.data.slug}`)).status).toBe(404);

      const title = `Published by ${role}`;
      const pub = expectBody(
        await t.pub('/posts', {
          method: 'POST',
          token,
          body: { title, content: '<p>Hi</p>', status: 'published' },
        }),
        201,
        Created,
      );
      expect((await t.pub(`/posts/${pub.data.slug}`)).status).toBe(200);
      const again = expectBody(
        await t.pub('/posts', { method: 'POST', token, body: { title } }),
        201,
        Created,
      );
      expect(again.data.slug).toBe(`${pub.data.slug}-2`);
    },
  );

  it('rejects create without a token (401), as a subscriber (403), and invalid bodies (422)', async () => {
    expectError(
      await t.pub('/posts', { method: 'POST', body: { title: 'x' } }),
      401,
      'Unauthenticated.',
    );
    const reader = await t.login('subscriber');
    expectError(
      await t.pub('/posts', { method: 'POST', token: reader, body: { title: 'x' } }),
      403,
      'This action is unauthorized.',
    );
    const editor = await t.login('editor');
    expectError(
      await t.pub('/posts', { method: 'POST', token: editor, body: {} }),
      422,
      'The title field is required.',
      {
        title: ['The title field is required.'],
      },
    );
    expectError(
      await t.pub('/posts', {
        method: 'POST',
        token: editor,
        body: { title: 'x', status: 'archived' },
      }),
      422,
      'The selected status is invalid.',
    );
  });

  it('updates title and status; publishing makes the post public', async () => {
    const editor = await t.login('editor');
    const created = expectBody(
      await t.pub('/posts', { method: 'POST', token: editor, body: { title: 'To update' } }),
      201,
      Created,
    );
    const res = await t.pub(`/posts/${created.data.id}`, {
      method: 'PATCH',
      token: editor,
      body: { title: 'Updated title', status: 'published' },
    });
    expect(
      expectBody(
        res,
        200,
        one(z.strictObject({ id: z.number(), title: z.string(), status: z.string() })),
      ).data,
    ).toEqual({
      id: created.data.id,
      title: 'Updated title',
      status: 'published',
    });
    const list = expectBody(await t.pub('/posts?per_page=1'), 200, Page);
    expect(list.data[0]?.id).toBe(created.data.id);
  });

  it('applies the role rules on update and delete', async () => {
    const [editor, admin, subscriber] = await Promise.all([
      t.login('editor'),
      t.login('admin'),
      t.login('subscriber'),
    ]);
    const created = expectBody(
      await t.pub('/posts', { method: 'POST', token: editor, body: { title: 'Role rules' } }),
      201,
      Created,
    );
    const path = `/posts/${created.data.id}`;
    expectError(
      await t.pub(path, { method: 'PATCH', body: { title: 'x' } }),
      401,
      'Unauthenticated.',
    );
    expectError(
      await t.pub(path, { method: 'PATCH', token: subscriber, body: { title: 'x' } }),
      403,
      'This action is unauthorized.',
    );
    expectError(
      await t.pub(path, { method: 'PATCH', token: editor, body: { status: 'gone' } }),
      422,
      'The selected status is invalid.',
    );
    expectError(
      await t.pub('/posts/999999', { method: 'PATCH', token: editor, body: { title: 'x' } }),
      404,
      'Post not found.',
    );
    expect(
      (await t.pub(path, { method: 'PATCH', token: admin, body: { title: 'By admin' } })).status,
    ).toBe(200);

    expectError(
      await t.pub(path, { method: 'DELETE', token: editor }),
      403,
      'This action is unauthorized.',
    );
    const del = await t.pub(path, { method: 'DELETE', token: admin });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Post deleted.' });
    expectError(await t.pub(path, { method: 'DELETE', token: admin }), 404, 'Post not found.');
  });

  it('lets an author who is a plain subscriber update only their own post', async () => {
    const site = t.mock.state.publishing.sites.get('daily-planet');
    const sub = site?.users.find((u) => u.email === 'subscriber@masthead.test');
    const post = site?.posts.find((p) => p.status === 'published' && p.authorId !== sub?.id);
    if (!site || !sub || !post) throw new Error('seed');
    const token = await t.login('subscriber');
    const own = { ...post, id: site.nextId.post++, slug: 'subscriber-own-post', authorId: sub.id };
    site.posts.push(own);
    expect(
      (await t.pub(`/posts/${own.id}`, { method: 'PATCH', token, body: { title: 'Mine' } })).status,
    ).toBe(200);
    expect(
      (await t.pub(`/posts/${post.id}`, { method: 'PATCH', token, body: { title: 'Not mine' } }))
        .status,
    ).toBe(403);
  });
});
