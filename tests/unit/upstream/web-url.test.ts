import { describe, expect, it } from 'vitest';
import { planSchema, streamSchema, editionSchema } from '../../../src/lib/publishing/schema.ts';
import { webUrl } from '../../../src/lib/upstream/parse.ts';

describe('the scheme check of upstream addresses', () => {
  it.each([
    ['https://shop.example/subscribe/digital', 'https://shop.example/subscribe/digital'],
    ['http://127.0.0.1:4010/subscribe/x', 'http://127.0.0.1:4010/subscribe/x'],
  ])('keeps %s', (input, expected) => {
    expect(webUrl(input)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'mailto:x@example.com',
    '/storage/cover.jpg',
    'http://',
    '',
    null,
    undefined,
  ])('drops %j', (input) => {
    expect(webUrl(input)).toBeNull();
  });

  it('applies to every address field the pages use as a link or image', () => {
    const hostile = 'javascript:alert(document.domain)';
    const plan = planSchema.parse({
      name: 'Digital',
      slug: 'digital',
      price: '9.00',
      currency: 'EUR',
      interval: 'month',
      subscribe_url: hostile,
    });
    expect(plan.subscribe_url).toBeNull();
    const stream = streamSchema.parse({
      title: 'Council',
      slug: 'council',
      watch_url: hostile,
      stream_url: 'data:text/html,x',
      thumbnail_url: hostile,
    });
    expect([stream.watch_url, stream.stream_url, stream.thumbnail_url]).toEqual([null, null, null]);
    const edition = editionSchema.parse({
      title: 'Monday',
      slug: 'monday',
      cover_image_url: hostile,
      reader_url: hostile,
      pages: [{ page_number: 1, image_url: hostile }],
    });
    expect([edition.cover_image_url, edition.reader_url, edition.pages[0]?.image_url]).toEqual([
      null,
      null,
      '',
    ]);
  });
});
