import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { pictureHtml } from '../../../src/lib/images/picture-html.ts';
import type { Picture } from '../../../src/lib/images/picture.ts';

const picture = (): Picture => ({
  sources: [
    { type: 'image/avif', srcset: '/_img/a/320.avif 320w, /_img/a/640.avif 640w' },
    { type: 'image/webp', srcset: '/_img/a/320.webp 320w' },
  ],
  src: '/_img/a/640.jpg?x=1&y="2"',
  srcset: '/_img/a/320.jpg 320w',
  sizes: '(min-width: 60rem) 22rem, 100vw',
  width: 1600,
  height: 900,
});

const { document } = new Window();

function parsed(html: string): HTMLPictureElement {
  const template = document.createElement('template');
  template.innerHTML = html;
  expect(template.content.children).toHaveLength(1);
  return template.content.firstElementChild as unknown as HTMLPictureElement;
}

describe('picture HTML', () => {
  it('is the picture a browser reads: sources best first, the JPEG with its sizes, lazy by default', () => {
    const element = parsed(pictureHtml(picture(), { alt: '' }));
    const sources = [...element.querySelectorAll('source')];
    expect(sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp']);
    expect(sources[0]?.getAttribute('srcset')).toBe('/_img/a/320.avif 320w, /_img/a/640.avif 640w');
    expect(sources.every((source) => source.sizes === '(min-width: 60rem) 22rem, 100vw')).toBe(
      true,
    );
    const img = element.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/_img/a/640.jpg?x=1&y="2"');
    expect([img.width, img.height, img.alt, img.getAttribute('class')]).toEqual([
      1600,
      900,
      '',
      null,
    ]);
    expect([img.loading, img.decoding, img.getAttribute('fetchpriority')]).toEqual([
      'lazy',
      'async',
      null, // the browser's own `auto`
    ]);
  });

  it('the priority picture loads at once and first; alt text and class are kept, escaped', () => {
    const html = pictureHtml(picture(), {
      alt: 'The "Harbour" & the bay <at dawn>',
      priority: true,
      className: 'cover',
    });
    expect(html).toContain('alt="The &quot;Harbour&quot; &amp; the bay &lt;at dawn&gt;"');
    const img = parsed(html).querySelector('img')!;
    expect(img.alt).toBe('The "Harbour" & the bay <at dawn>');
    expect(img.className).toBe('cover');
    expect([img.loading, img.decoding, img.getAttribute('fetchpriority')]).toEqual([
      'eager',
      'sync',
      'high',
    ]);
  });

  it('the same picture and options give the same text; other options their own', () => {
    const shared = picture();
    const lazy = pictureHtml(shared, { alt: '' });
    expect(pictureHtml(shared, { alt: '' })).toBe(lazy);
    expect(pictureHtml(shared, { alt: '', priority: true })).toContain('loading="eager"');
    expect(pictureHtml(shared, { alt: '', className: '' })).toContain('<img class="" src=');
    expect(pictureHtml(shared, { alt: 'x', altShown: true })).toContain('<picture data-alt="x">');
  });

  it('escapes what ends or breaks a double-quoted value, and the start of a tag', () => {
    const html = pictureHtml(picture(), { alt: 'a&b "c" <d>', title: '640' });
    expect(html).toContain(' alt="a&amp;b &quot;c&quot; &lt;d&gt;"');
    expect(html).toContain(' title="640"');
    expect(html).toMatch(/ width="\d+"/);
  });
});
