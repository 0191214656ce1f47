import { ARTICLE_FIGURE } from './layouts.ts';
import { upstreamPicture, type ImageLinks, type Picture } from './picture.ts';

/**
 * An `<img>` as `sanitizePostHtml` writes it: attribute values double-quoted, never a raw `>` or
 * `"` inside, so this cannot match outside a tag.
 */
const IMG = /<img\s([^>]*?)\s*\/?>/g;
const ATTRIBUTE = /([a-z-]+)="([^"]*)"/g;

const unescape = (value: string) =>
  value
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
const escape = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

const dimension = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

function pictureHtml(picture: Picture, alt: string, title: string | undefined): string {
  const sizes = escape(picture.sizes);
  const sources = picture.sources
    .map((s) => `<source type="${s.type}" srcset="${escape(s.srcset)}" sizes="${sizes}">`)
    .join('');
  const titleAttribute = title === undefined ? '' : ` title="${escape(title)}"`;
  // The alt text again for CSS, shown beneath the picture: seen only when the picture failed.
  const altAttribute = alt.trim() === '' ? '' : ` data-alt="${escape(alt)}"`;
  return `<picture${altAttribute}>${sources}<img src="${escape(picture.src)}" srcset="${escape(picture.srcset)}" sizes="${sizes}" width="${picture.width}" height="${picture.height}" alt="${escape(alt)}"${titleAttribute} loading="lazy" decoding="async"></picture>`;
}

/**
 * Cleaned post HTML with every `<img>` served through the image route: a `<picture>` with AVIF and
 * WebP at the article column's widths and one JPEG for browsers that take neither, width and height set (3:2 when the upstream gave
 * none). A picture from a host the tenant does not take pictures from is left out, never hot-linked.
 * A picture with alt text carries it as `data-alt` too: a failed one collapses to that text.
 */
export function withPictures(html: string, links: ImageLinks): string {
  return html.replace(IMG, (_tag, body: string) => {
    const attributes = new Map<string, string>();
    for (const [, name, value] of body.matchAll(ATTRIBUTE)) {
      if (name && value !== undefined) attributes.set(name, unescape(value));
    }
    const picture = upstreamPicture(
      links,
      {
        url: attributes.get('src'),
        width: dimension(attributes.get('width')),
        height: dimension(attributes.get('height')),
      },
      ARTICLE_FIGURE,
    );
    return picture
      ? pictureHtml(picture, attributes.get('alt') ?? '', attributes.get('title'))
      : '';
  });
}
