import { unescapeHtml } from '../content/escape.ts';
import { ARTICLE_COVER } from './layouts.ts';
import { pictureHtml } from './picture-html.ts';
import { upstreamPicture, type ImageLinks } from './picture.ts';

/**
 * An `<img>` as `sanitizePostHtml` writes it: attribute values double-quoted, never a raw `>` or
 * `"` inside, so this cannot match outside a tag.
 */
const IMG = /<img\s([^>]*?)\s*\/?>/g;
const ATTRIBUTE = /([a-z-]+)="([^"]*)"/g;

const dimension = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * Cleaned post HTML with every `<img>` a `<picture>` through the image route, at the article column's
 * widths; one from a host not allowed is left out (never hot-linked).
 */
export function withPictures(html: string, links: ImageLinks): string {
  return html.replace(IMG, (_tag, body: string) => {
    const attributes = new Map<string, string>();
    for (const [, name, value] of body.matchAll(ATTRIBUTE)) {
      if (name && value !== undefined) attributes.set(name, unescapeHtml(value));
    }
    const picture = upstreamPicture(
      links,
      {
        url: attributes.get('src'),
        width: dimension(attributes.get('width')),
        height: dimension(attributes.get('height')),
      },
      ARTICLE_COVER,
    );
    const alt = attributes.get('alt') ?? '';
    return picture
      ? pictureHtml(picture, { alt, title: attributes.get('title'), altShown: true })
      : '';
  });
}
