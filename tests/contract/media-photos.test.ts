import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, useMock } from './helpers.ts';
import { EditionSchema, one, page, PostItemSchema } from './schemas.ts';

// Photo mode (MOCK_MEDIA=photos): the same contract, with pictures the size a newsroom uploads.
const t = useMock({ media: 'photos' });

const picture = async (url: string) => {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return { res, bytes, meta, sha: createHash('sha256').update(bytes).digest('hex') };
};

describe('photo mode', () => {
  it('serves post covers as 3000×2000 JPEGs of more than a megabyte, the same bytes every time', async () => {
    const { data } = expectBody(await t.pub('/posts?per_page=10'), 200, page(PostItemSchema));
    const post = data.find((p) => p.cover_image_url);
    expect(post).toMatchObject({ cover_image_width: 3000, cover_image_height: 2000 });
    const first = await picture(post?.cover_image_url ?? '');
    expect(first.res.headers.get('content-type')).toBe('image/jpeg');
    expect(first.meta).toMatchObject({ format: 'jpeg', width: 3000, height: 2000 });
    expect(first.bytes.length).toBeGreaterThan(1_000_000);
    expect((await picture(post?.cover_image_url ?? '')).sha).toBe(first.sha);
  }, 30_000);

  it('gives editions 24 to 26 pages scanned at 2200×3000', async () => {
    const list = expectBody(
      await t.pub('/epaper'),
      200,
      z.object({ data: z.array(EditionSchema) }),
    );
    const free = list.data.find((e) => e.is_free);
    const { data } = expectBody(await t.pub(`/epaper/${free?.slug}`), 200, one(EditionSchema));
    expect(data.page_count).toBeGreaterThanOrEqual(24);
    expect(data.page_count).toBeLessThanOrEqual(26);
    expect(data.pages).toHaveLength(data.page_count);
    const scan = await picture(data.pages?.[1]?.image_url ?? '');
    expect(scan.meta).toMatchObject({ format: 'jpeg', width: 2200, height: 3000 });
    expect(data.pages?.[1]).toMatchObject({ width: 2200, height: 3000 });
  }, 30_000);

  it('points the figures inside post HTML at photos', async () => {
    const { data } = expectBody(await t.pub('/posts?per_page=20'), 200, page(PostItemSchema));
    for (const item of data) {
      const res = await t.pub(`/posts/${item.slug}`);
      const content = (res.body as { data: { content: string } }).data.content;
      if (!content.includes('/figures/')) continue;
      expect(content).toMatch(/\/figures\/[^"]+\.jpg"/);
      expect(content).not.toMatch(/\/figures\/[^"]+\.svg"/);
      return;
    }
    throw new Error('no post with a figure in the first 20');
  });
});
