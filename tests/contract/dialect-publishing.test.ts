import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demo, expectBody, expectError, http, useMock } from './helpers.ts';
import {
  CommentSchema,
  EditionSchema,
  MeSchema,
  one,
  page,
  PlanSchema,
  PostItemSchema,
  PostSchema,
  StreamSchema,
} from './schemas.ts';
import {
  AltEditionSchema,
  AltMeSchema,
  AltPlanSchema,
  AltPostItemSchema,
  AltStreamSchema,
} from './schemas-alt.ts';

/**
 * One row per silence of publishing-api.md that the site reads and the dialects fill differently
 * (docs/api-assumptions.md, "Dialects").
 */

const def = useMock();
const alt = useMock({ dialect: 'alt' });

const AltList = <T extends z.ZodType>(item: T) => page(item);

/** A published post with two figures or more (the same slug in both dialects: same seed). */
async function postWithFigures(): Promise<string> {
  const list = expectBody(await alt.pub('/posts?per_page=50'), 200, AltList(AltPostItemSchema));
  const post = list.data.find((p) => p.content.split('/figures/').length > 2);
  if (!post) throw new Error('no post with figures');
  return post.slug;
}

const comment = { content: 'Guest words.' };

type Pair = { silence: string; default: () => Promise<void>; alt: () => Promise<void> };

const pairs: Pair[] = [
  {
    silence: 'post image, featured flag, tags, content in lists, timestamps',
    default: async () => {
      const list = expectBody(await def.pub('/posts?per_page=50'), 200, page(PostItemSchema));
      const covered = list.data.find((p) => p.cover_image_url !== null);
      expect(covered).toMatchObject({ cover_image_width: 1600, cover_image_height: 900 });
      expect(list.data.some((p) => p.tags.length > 0 && typeof p.tags[0] === 'object')).toBe(true);
    },
    alt: async () => {
      const list = expectBody(await alt.pub('/posts?per_page=50'), 200, page(AltPostItemSchema));
      const covered = list.data.find((p) => p.featured_image !== null);
      expect(covered?.featured_image).toMatchObject({
        url: expect.stringMatching(/\/media\/daily-planet\/covers\/.+\.svg$/) as unknown,
        alt: covered?.title,
        width: 1600,
        height: 900,
      });
      expect(list.data.some((p) => p.tags.length > 0)).toBe(true);
      expect(list.data.some((p) => p.featured === 1)).toBe(true);
      const cover = await fetch(covered?.featured_image?.url ?? '');
      expect(cover.status).toBe(200);
    },
  },
  {
    silence: 'image URLs in post HTML',
    default: async () => {
      const { data } = expectBody(
        await def.pub(`/posts/${await postWithFigures()}`),
        200,
        one(PostSchema),
      );
      const origin = new URL(def.mock.publishingUrl).origin;
      expect(data.content).toContain(`src="${origin}/media/daily-planet/figures/`);
    },
    alt: async () => {
      const post = expectBody(
        await alt.pub(`/posts/${await postWithFigures()}`),
        200,
        one(AltPostItemSchema),
      ).data;
      const srcs = [...post.content.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1] ?? '');
      const figures = srcs.filter((s) => s.includes('/figures/'));
      expect(figures.some((s) => s.startsWith('/media/'))).toBe(true);
      expect(figures.some((s) => s.startsWith('media/'))).toBe(true);
      expect(figures.some((s) => s.startsWith('http'))).toBe(false);
      // Both forms resolve against the API's origin (not the reader's page) to a real image.
      const origin = new URL(alt.mock.publishingUrl).origin;
      for (const src of figures) {
        const res = await fetch(new URL(src, `${origin}/`));
        expect(res.headers.get('content-type'), src).toContain('image/svg+xml');
      }
    },
  },
  {
    silence: 'stream provider and embed hosts',
    default: async () => {
      const list = expectBody(await def.pub('/streams?per_page=50'), 200, page(StreamSchema));
      const origin = new URL(def.mock.publishingUrl).origin;
      expect(list.data.every((s) => s.provider === 'masthead-player')).toBe(true);
      expect(list.data.every((s) => s.stream_url.startsWith(`${origin}/player/`))).toBe(true);
    },
    alt: async () => {
      const list = expectBody(await alt.pub('/streams?per_page=50'), 200, page(AltStreamSchema));
      const youtube = list.data.find((s) => s.provider === 'youtube');
      const vimeo = list.data.find((s) => s.provider === 'vimeo');
      expect(youtube?.embed_code).toContain(`src="${youtube?.stream_url}"`);
      expect(youtube?.stream_url).toMatch(/^https:\/\/www\.youtube\.com\/embed\//);
      expect(vimeo?.embed_code).toContain('src="https://player.vimeo.com/video/');
    },
  },
  {
    silence: 'plan interval words and feature items',
    default: async () => {
      const { data } = expectBody(await def.pub('/plans'), 200, one(z.array(PlanSchema)));
      expect(data.map((p) => p.interval)).toEqual(['month', 'month', 'year']);
    },
    alt: async () => {
      const { data } = expectBody(await alt.pub('/plans'), 200, one(z.array(AltPlanSchema)));
      expect(data.map((p) => p.interval)).toEqual(['monthly', 'monthly', 'yearly']);
      expect(data[0]?.features[0]).toMatchObject({ included: true });
    },
  },
  {
    silence: 'edition cover field and date',
    default: async () => {
      const list = expectBody(await def.pub('/epaper'), 200, page(EditionSchema));
      expect(list.data[0]?.cover_image_url).toMatch(/cover\.svg$/);
    },
    alt: async () => {
      const list = expectBody(await alt.pub('/epaper'), 200, page(AltEditionSchema));
      expect(list.data[0]?.cover_image).toMatch(/cover\.svg$/);
      const free = list.data.find((e) => e.is_free);
      const detail = expectBody(await alt.pub(`/epaper/${free?.slug}`), 200, one(AltEditionSchema));
      expect(detail.data.pages?.length).toBe(detail.data.page_count);
    },
  },
  {
    silence: 'paid subscription on /auth/me',
    default: async () => {
      const me = await def.pub('/auth/me', { token: await def.login('subscriber') });
      expect(expectBody(me, 200, one(MeSchema)).data.has_active_subscription).toBe(true);
    },
    alt: async () => {
      const sub = await alt.pub('/auth/me', { token: await alt.login('subscriber') });
      expect(expectBody(sub, 200, one(AltMeSchema)).data.subscription).toMatchObject({
        status: 'active',
      });
      const reader = await alt.pub('/auth/me', { token: await alt.login('reader') });
      expect(expectBody(reader, 200, one(AltMeSchema)).data.subscription).toBeNull();
    },
  },
  {
    silence: 'login with wrong credentials',
    default: async () => {
      const body = { email: 'reader@masthead.test', password: 'wrong-password' };
      expectError(
        await def.pub('/auth/login', { method: 'POST', body }),
        422,
        'These credentials do not match our records.',
      );
    },
    alt: async () => {
      const body = { email: 'reader@masthead.test', password: 'wrong-password' };
      expectError(
        await alt.pub('/auth/login', { method: 'POST', body }),
        401,
        'Invalid credentials.',
      );
    },
  },
  {
    silence: "a guest comment's author fields and state",
    default: async () => {
      const path = '/posts/welcome-to-our-new-website/comments';
      const body = { ...comment, author_name: 'Gus', author_email: 'gus@example.com' };
      const res = await def.pub(path, { method: 'POST', body });
      expect(
        expectBody(res, 201, z.object({ data: z.object({ status: z.string() }) })).data.status,
      ).toBe('pending');
      const pending = await def.pub('/comments?status=pending', {
        token: await def.login('editor'),
      });
      expect(expectBody(pending, 200, page(CommentSchema)).data.length).toBeGreaterThan(0);
    },
    alt: async () => {
      const path = '/posts/welcome-to-our-new-website/comments';
      const old = { ...comment, author_name: 'Gus', author_email: 'gus@example.com' };
      expectError(
        await alt.pub(path, { method: 'POST', body: old }),
        422,
        'The name field is required. (and 1 more error)',
        { name: ['The name field is required.'], email: ['The email field is required.'] },
      );
      const body = { ...comment, name: 'Gus', email: 'gus@example.com' };
      const res = await alt.pub(path, { method: 'POST', body });
      expect(
        expectBody(res, 201, z.object({ data: z.object({ status: z.string() }) })).data.status,
      ).toBe('awaiting_moderation');
      const editor = await alt.login('editor');
      const waiting = await alt.pub('/comments?status=awaiting_moderation', { token: editor });
      const items = (waiting.body as { data: { status: string }[] }).data;
      expect(waiting.status).toBe(200);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((c) => c.status === 'awaiting_moderation')).toBe(true);
    },
  },
];

describe.each(pairs)('$silence', (pair) => {
  it('default dialect', pair.default);
  it('alt dialect', pair.alt);
});

it('serves the same tenants and demo logins in both dialects', async () => {
  for (const tenant of Object.keys(demo.publishing)) {
    const body = { email: 'admin@masthead.test', password: demo.password };
    for (const t of [def, alt]) {
      const res = await http(`${t.mock.publishingUrl}/auth/login`, {
        method: 'POST',
        tenant,
        body,
      });
      expect(res.status, `${tenant}`).toBe(200);
    }
  }
});
