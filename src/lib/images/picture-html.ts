import { escapeHtml } from '../content/escape.ts';
import { memo } from '../memo.ts';
import type { Picture } from './picture.ts';

/**
 * The `<picture>` element as HTML: the one writer for `Picture.astro`, the story cards (a component
 * per card costs a render more) and a post's body (./content.ts).
 */
interface PictureOptions {
  alt: string;
  /** The page's largest picture (LCP): loaded at once, first. Every other picture waits (lazy). */
  priority?: boolean | undefined;
  className?: string | undefined;
  /** The `<img>`'s `title` (a post's picture keeps the upstream's). */
  title?: string | undefined;
  /** The alt text again as the `<picture>`'s `data-alt`, shown by CSS in place of a failed picture. */
  altShown?: boolean | undefined;
}

/** A double-quoted attribute (`<` escaped too: a post's HTML is scanned for tags). */
const attribute = (name: string, value: string | number | undefined): string =>
  value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;

/** Made once per picture and options: pictures are shared between renders (`upstreamPicture`). */
const written = memo((picture: Picture) =>
  memo((_key: string, options: PictureOptions) => writePicture(picture, options), { max: 32 }),
);

export function pictureHtml(picture: Picture, options: PictureOptions): string {
  const { alt, priority = false, className, title, altShown = false } = options;
  return written(picture)(JSON.stringify([alt, priority, className, title, altShown]), options);
}

function writePicture(picture: Picture, options: PictureOptions): string {
  const { alt, priority = false, className, title, altShown = false } = options;
  const sources = picture.sources
    .map(
      (source) =>
        `<source${attribute('type', source.type)}${attribute('srcset', source.srcset)}${attribute('sizes', picture.sizes)}>`,
    )
    .join('');
  const img =
    `<img${attribute('class', className)}${attribute('src', picture.src)}` +
    `${attribute('srcset', picture.srcset)}${attribute('sizes', picture.sizes)}` +
    `${attribute('width', picture.width)}${attribute('height', picture.height)}${attribute('alt', alt)}` +
    `${attribute('title', title)}${attribute('loading', priority ? 'eager' : 'lazy')}` +
    `${attribute('decoding', priority ? 'sync' : 'async')}${attribute('fetchpriority', priority ? 'high' : undefined)}>`;
  const shown = altShown && alt.trim() !== '' ? alt : undefined;
  return `<picture${attribute('data-alt', shown)}>${sources}${img}</picture>`;
}
