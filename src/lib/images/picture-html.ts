import { memo } from '../memo.ts';
import type { Picture } from './picture.ts';

/**
 * The `<picture>` element of a picture, as HTML. One function for `Picture.astro` and the story
 * cards, which write it into their own markup (`set:html`) instead of rendering a component per
 * card: a component instance costs a render more than the element.
 */
export interface PictureOptions {
  alt: string;
  /** The page's largest picture (LCP): loaded at once, first. Every other picture waits (lazy). */
  priority?: boolean | undefined;
  className?: string | undefined;
}

/** A double-quoted attribute value: only `&` and `"` need escaping there (as Astro escapes). */
export function attributeValue(value: string | number): string {
  return String(value).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

// Written as Astro writes attributes: an empty value as the bare name, none when undefined.
const attribute = (name: string, value: string | number | undefined): string =>
  value === undefined ? '' : value === '' ? ` ${name}` : ` ${name}="${attributeValue(value)}"`;

/** Made once per picture and options: pictures are shared between renders (`upstreamPicture`). */
const written = memo((picture: Picture) =>
  memo((_key: string, options: PictureOptions) => writePicture(picture, options), { max: 32 }),
);

export function pictureHtml(picture: Picture, options: PictureOptions): string {
  const { alt, priority = false, className } = options;
  return written(picture)(
    `${alt}\0${priority}\0${className ?? ''}\0${className === undefined}`,
    options,
  );
}

function writePicture(picture: Picture, options: PictureOptions): string {
  const { alt, priority = false, className } = options;
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
    `${attribute('loading', priority ? 'eager' : 'lazy')}${attribute('decoding', priority ? 'sync' : 'async')}` +
    `${attribute('fetchpriority', priority ? 'high' : 'auto')}>`;
  return `<picture>${sources}${img}</picture>`;
}
