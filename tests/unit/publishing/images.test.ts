import { describe, expect, it } from 'vitest';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { resolveProfile } from '../../../src/lib/profiles/schema.ts';
import { postListSchema, singlePostSchema } from '../../../src/lib/publishing/schema.ts';
import { parseOrThrow } from '../../../src/lib/upstream/parse.ts';
import { reshapeBody } from '../../../src/lib/upstream/profile.ts';

const post = { id: 1, title: 'Hello', slug: 'hello', content: '<p>x</p>' };
const ctx = { service: 'publishing' as const, operation: 'test' };
const alt = resolveProfile('publishing', 'publishing-alt', readProfileTexts());
const cover = (extra: Record<string, unknown>, profile: typeof alt | null = alt) => {
  const body = { data: { ...post, ...extra } };
  const op = profile?.operations['posts.get'];
  const parsed = parseOrThrow(singlePostSchema, op ? reshapeBody(body, op, 'item') : body, ctx);
  return {
    url: parsed.cover_image_url,
    width: parsed.cover_image_width,
    height: parsed.cover_image_height,
    alt: parsed.cover_image_alt,
  };
};

describe('a post’s image', () => {
  it.each([
    [
      'featured_image as an object, mapped by the alt profile',
      {
        featured_image: {
          url: 'https://cdn.example/a.jpg',
          alt: 'Harbour',
          width: 1200,
          height: '800',
        },
      },
      { url: 'https://cdn.example/a.jpg', width: 1200, height: 800, alt: 'Harbour' },
    ],
    [
      'no image at all',
      {},
      { url: undefined, width: undefined, height: undefined, alt: undefined },
    ],
    [
      'an image object without an address',
      { featured_image: { alt: 'nothing' } },
      { url: undefined, width: undefined, height: undefined, alt: 'nothing' },
    ],
  ])('%s', (_case, extra, expected) => {
    expect(cover(extra)).toEqual(expected);
  });

  it('is the contract’s cover_image_url without a profile, never guessed from other names', () => {
    const contract = { cover_image_url: 'https://cdn.example/d.jpg', cover_image_width: 10 };
    expect(cover(contract, null)).toMatchObject({ url: 'https://cdn.example/d.jpg', width: 10 });
    const other = { featured_image: { url: 'https://cdn.example/a.jpg' } };
    expect(cover(other, null).url).toBe(undefined);
  });

  it('is mapped in post lists and in a category’s posts too', () => {
    const item = { ...post, featured_image: { url: 'https://cdn.example/e.jpg' } };
    const op = alt?.operations['posts.list'];
    const list = parseOrThrow(postListSchema, reshapeBody({ data: [item] }, op, 'list'), ctx);
    expect(list.items[0]?.cover_image_url).toBe('https://cdn.example/e.jpg');
    const category = reshapeBody(
      { data: { category: { id: 1, name: 'N', slug: 'n' }, posts: [item] } },
      alt?.operations['categories.get'],
      'item',
    );
    expect(category).toMatchObject({
      data: { posts: [{ cover_image_url: 'https://cdn.example/e.jpg' }] },
    });
  });
});
