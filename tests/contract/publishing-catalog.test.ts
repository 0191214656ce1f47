import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError, useMock } from './helpers.ts';
import {
  CategorySchema,
  EditionSchema,
  one,
  page,
  PlanSchema,
  PostItemSchema,
  ShortMetaSchema,
  StreamSchema,
  TagSchema,
} from './schemas.ts';

const t = useMock();

describe('categories', () => {
  it('lists every category with published post counts, unpaginated', async () => {
    const { data } = expectBody(
      await t.pub('/categories'),
      200,
      z.strictObject({ data: z.array(CategorySchema) }),
    );
    expect(data.map((c) => c.slug)).toEqual(expect.arrayContaining(['news', 'sport']));
    const site = t.mock.state.publishing.sites.get('daily-planet');
    const news = data.find((c) => c.slug === 'news');
    const published = site?.posts.filter(
      (p) => p.status === 'published' && p.categoryId === news?.id,
    ).length;
    expect(news?.posts_count).toBe(published);
  });

  it('shows one category with its posts and a short meta', async () => {
    const body = expectBody(
      await t.pub('/categories/sport?per_page=5'),
      200,
      one(
        z.strictObject({
          category: CategorySchema,
          posts: z.array(PostItemSchema),
          meta: ShortMetaSchema,
        }),
      ),
    );
    expect(body.data.posts).toHaveLength(5);
    expect(body.data.meta.total).toBe(body.data.category.posts_count);
    expect(
      body.data.posts.every((p) => p.category?.slug === 'sport' && p.status === 'published'),
    ).toBe(true);
    expect(
      expectBody(
        await t.pub('/categories/sport'),
        200,
        z.object({ data: z.object({ meta: ShortMetaSchema }) }),
      ).data.meta.per_page,
    ).toBe(10);
  });

  it('answers 404 for an unknown category', async () => {
    expectError(await t.pub('/categories/nope'), 404, 'Category not found.');
  });
});

describe('tags', () => {
  it('lists only tags with a published post, each with an absolute url', async () => {
    const { data } = expectBody(
      await t.pub('/tags'),
      200,
      z.strictObject({ data: z.array(TagSchema) }),
    );
    expect(data.length).toBeGreaterThan(3);
    expect(data.map((x) => x.name)).not.toContain('Embargoed');
    expect(data[0]?.url).toBe(`${t.mock.publishingUrl}/tags/${data[0]?.slug}`);
  });

  it('shows one tag with its published posts (per_page default 10)', async () => {
    const body = expectBody(
      await t.pub('/tags/city-hall'),
      200,
      one(
        z.strictObject({ tag: TagSchema, posts: z.array(PostItemSchema), meta: ShortMetaSchema }),
      ),
    );
    expect(body.data.meta.per_page).toBe(10);
    expect(body.data.posts.every((p) => p.tags.some((x) => x.slug === 'city-hall'))).toBe(true);
  });

  it.each(['nope', 'embargoed'])('answers 404 for tag %s (unknown or draft-only)', async (slug) => {
    expectError(await t.pub(`/tags/${slug}`), 404, 'Tag not found.');
  });
});

describe('plans', () => {
  it('lists active plans in content order, not id order', async () => {
    const { data } = expectBody(
      await t.pub('/plans'),
      200,
      z.strictObject({ data: z.array(PlanSchema) }),
    );
    expect(data.map((p) => p.slug)).toEqual(['digital', 'digital-epaper', 'annual']);
    expect(data.every((p) => p.currency === 'USD')).toBe(true);
  });

  it('shows one plan with its subscribe_url; inactive and unknown are 404', async () => {
    const { data } = expectBody(
      await t.pub('/plans/annual', { tenant: 'alpine-post' }),
      200,
      one(PlanSchema),
    );
    expect(data).toMatchObject({ interval: 'year', currency: 'CHF' });
    expect((await fetch(data.subscribe_url)).status).toBe(200);
    expectError(await t.pub('/plans/founding-member'), 404, 'Plan not found.');
    expectError(await t.pub('/plans/nope'), 404, 'Plan not found.');
  });
});

describe('e-paper paywall', () => {
  const Page = page(EditionSchema);

  it('lists editions newest first, per_page default 12, without pages', async () => {
    const body = expectBody(await t.pub('/epaper'), 200, Page);
    expect(body.meta.per_page).toBe(12);
    expect(body.data.length).toBeGreaterThanOrEqual(8);
    expect(body.data.some((e) => e.is_free) && body.data.some((e) => !e.is_free)).toBe(true);
    expect(body.data.every((e) => e.pages === undefined)).toBe(true);
    const dates = body.data.map((e) => e.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it.each([
    { who: 'anonymous', role: null, paid: false },
    { who: 'free subscriber', role: 'reader', paid: false },
    { who: 'paying subscriber', role: 'subscriber', paid: true },
    { who: 'editor', role: 'editor', paid: true },
  ] as const)('gives the $who pages of paid editions: $paid', async ({ role, paid }) => {
    const token = role ? await t.login(role) : undefined;
    const init = token ? { token } : {};
    const list = expectBody(await t.pub('/epaper', init), 200, Page).data;
    const locked = list.find((e) => !e.is_free);
    const free = list.find((e) => e.is_free);
    const paidOne = expectBody(
      await t.pub(`/epaper/${locked?.slug}`, init),
      200,
      one(EditionSchema),
    ).data;
    expect(paidOne.requires_subscription).toBe(!paid);
    expect(paidOne.pages).toHaveLength(paid ? paidOne.page_count : 0);
    const freeOne = expectBody(
      await t.pub(`/epaper/${free?.slug}`, init),
      200,
      one(EditionSchema),
    ).data;
    expect(freeOne.requires_subscription).toBe(false);
    expect(freeOne.pages).toHaveLength(freeOne.page_count);
  });

  it('serves page images as portrait SVG and 404s unknown editions', async () => {
    const free = expectBody(await t.pub('/epaper'), 200, Page).data.find((e) => e.is_free);
    const ed = expectBody(await t.pub(`/epaper/${free?.slug}`), 200, one(EditionSchema)).data;
    const img = await fetch(ed.pages?.[0]?.image_url ?? '');
    expect(img.headers.get('content-type')).toBe('image/svg+xml');
    expect(await img.text()).toContain('viewBox="0 0 1200 1600"');
    expect((await fetch(ed.cover_image_url)).status).toBe(200);
    expectError(await t.pub('/epaper/nope'), 404, 'Edition not found.');
  });
});

describe('streams', () => {
  it('lists live first, then scheduled soonest first, then ended', async () => {
    const { data, meta } = expectBody(await t.pub('/streams'), 200, page(StreamSchema));
    expect(meta.per_page).toBe(12);
    const order = data.map((s) => s.status);
    expect(order).toEqual(
      [...order].sort(
        (a, b) =>
          ['live', 'scheduled', 'ended'].indexOf(a) - ['live', 'scheduled', 'ended'].indexOf(b),
      ),
    );
    expect(new Set(order)).toEqual(new Set(['live', 'scheduled', 'ended']));
    const scheduled = data.filter((s) => s.status === 'scheduled');
    expect(scheduled.every((s) => Date.parse(s.scheduled_at) > Date.now())).toBe(true);
    expect(data.filter((s) => s.is_live).length).toBe(order.filter((s) => s === 'live').length);
  });

  it('shows one stream whose embed points at the mock player page', async () => {
    const first = expectBody(await t.pub('/streams'), 200, page(StreamSchema)).data[0];
    const { data } = expectBody(await t.pub(`/streams/${first?.slug}`), 200, one(StreamSchema));
    expect(data.embed_code).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/player\//);
    const player = await fetch(data.stream_url);
    expect(player.headers.get('content-type')).toContain('text/html');
    expect(await player.text()).toContain('mock-player');
    expectError(await t.pub('/streams/nope'), 404, 'Stream not found.');
  });
});

describe('media', () => {
  it('serves cover images as deterministic SVG with the title', async () => {
    const { data } = expectBody(
      await t.pub('/posts/welcome-to-our-new-website', { tenant: 'harbour-times' }),
      200,
      one(PostItemSchema.extend({ content: z.string() })),
    );
    const url = data.cover_image_url ?? '';
    const [a, b] = await Promise.all([
      fetch(url).then((r) => r.text()),
      fetch(url).then((r) => r.text()),
    ]);
    expect(a).toBe(b);
    expect(a).toContain('Welcome to our new website');
    expect(a).toContain('#0b6e79');
  });
});
