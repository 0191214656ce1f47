import { describe, expect, it } from 'vitest';
import { postListSchema, singlePostSchema } from '../../../src/lib/publishing/schema.ts';
import { parseOrThrow } from '../../../src/lib/upstream/parse.ts';

const post = { id: 1, title: 'Hello', slug: 'hello', content: '<p>x</p>' };
const ctx = { service: 'publishing' as const, operation: 'test' };
const cover = (extra: Record<string, unknown>) => {
  const parsed = parseOrThrow(singlePostSchema, { data: { ...post, ...extra } }, ctx);
  return {
    url: parsed.cover_image_url,
    width: parsed.cover_image_width,
    height: parsed.cover_image_height,
    alt: parsed.cover_image_alt,
  };
};

describe('a post’s image under the names real APIs use', () => {
  it.each([
    [
      'featured_image as an object (Laravel resources)',
      {
        featured_image: {
          url: 'https://cdn.example/a.jpg',
          alt: 'Harbour',
          width: 1200,
          height: 800,
        },
      },
      { url: 'https://cdn.example/a.jpg', width: 1200, height: 800, alt: 'Harbour' },
    ],
    [
      'featured_image as a string',
      { featured_image: 'https://cdn.example/b.jpg' },
      { url: 'https://cdn.example/b.jpg', width: null, height: null, alt: undefined },
    ],
    [
      'image with src and numeric strings',
      { image: { src: 'https://cdn.example/c.jpg', width: '640', height: '360' } },
      { url: 'https://cdn.example/c.jpg', width: 640, height: 360, alt: undefined },
    ],
    [
      'cover_image_url as the contract has it, winning over the others',
      {
        cover_image_url: 'https://cdn.example/d.jpg',
        cover_image_width: 10,
        cover_image_height: 5,
        featured_image: { url: 'https://cdn.example/other.jpg' },
      },
      { url: 'https://cdn.example/d.jpg', width: 10, height: 5, alt: undefined },
    ],
    [
      'no image at all',
      {},
      { url: undefined, width: undefined, height: undefined, alt: undefined },
    ],
    [
      'an image object without an address',
      { featured_image: { alt: 'nothing' } },
      { url: undefined, width: undefined, height: undefined, alt: undefined },
    ],
  ])('%s', (_case, extra, expected) => {
    expect(cover(extra)).toEqual(expected);
  });

  it('applies to post lists too', () => {
    const list = parseOrThrow(
      postListSchema,
      { data: [{ ...post, featured_image: { url: 'https://cdn.example/e.jpg' } }] },
      ctx,
    );
    expect(list.items[0]?.cover_image_url).toBe('https://cdn.example/e.jpg');
  });
});
