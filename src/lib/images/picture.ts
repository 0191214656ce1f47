import { memo } from '../memo.ts';
import { objectId } from '../render/identity.ts';
import type { Tenant } from '../tenants/schema.ts';
import { imagePath, type ImageCrop, type ImageTarget } from './address.ts';
import {
  formatType,
  srcsetOf,
  srcsetWidths,
  widthAtLeast,
  type ImageFormat,
  type ImageWidth,
} from './ladder.ts';
import { sourceAllowed } from './sources.ts';

/** What a page needs to address the image route: the signing key, the tenant and its link prefix. */
export type ImageLinks = {
  secret: string;
  tenant: Pick<Tenant, 'publishing'>;
  /** Site path → link (adds the `/<tenant>/` prefix when the visitor came that way). */
  href: (path: string) => string;
  /** How `href` writes links (host, path prefix or `?tenant=`): pictures are remembered per scope. */
  scope?: string | undefined;
};

/** A picture as the upstream describes it; unknown sizes are taken as 3:2 (the usual photo). */
type UpstreamImage = {
  url: string | null | undefined;
  width?: number | null | undefined;
  height?: number | null | undefined;
  /** Height over width to assume when the upstream gives no size (3:2 unless said). */
  assumedRatio?: number | undefined;
};

/** How wide a layout shows a picture: `sizes`, its largest and smallest CSS width (`srcsetWidths`). */
export type PictureLayout = { sizes: string; maxWidth: number; minWidth?: number };

export type PictureSource = { type: string; srcset: string };
export type Picture = {
  /** AVIF and WebP `<source>`s, best first. */
  sources: PictureSource[];
  /** The `<img>`: JPEG, for browsers that take neither. */
  src: string;
  /** The same JPEG alone, with its width (so `sizes` is valid on the `<img>`). */
  srcset: string;
  sizes: string;
  width: number;
  height: number;
};

const MODERN: ImageFormat[] = ['avif', 'webp'];
const DEFAULT_WIDTH = 1200;

/** The signed link of one derived image. */
export function imageHref(
  links: ImageLinks,
  target: ImageTarget,
  width: ImageWidth,
  format: ImageFormat,
  crop?: ImageCrop,
): string {
  return links.href(imagePath(links.secret, { target, width, format, crop }));
}

/** `{ width, height }` of an upstream image, `assumedRatio` (3:2) when the upstream does not say. */
export function intrinsicSize(image: UpstreamImage): { width: number; height: number } {
  const width = image.width && image.width > 0 ? image.width : DEFAULT_WIDTH;
  const ratio = image.assumedRatio ?? 2 / 3;
  const height = image.height && image.height > 0 ? image.height : Math.round(width * ratio);
  return { width, height };
}

/** `<picture>` data for a target the route can serve, at the widths the layout needs. */
export function pictureFor(
  links: ImageLinks,
  target: ImageTarget,
  image: UpstreamImage,
  layout: PictureLayout,
): Picture {
  const size = intrinsicSize(image);
  const widths = srcsetWidths(layout.maxWidth, image.width, layout.minWidth);
  const set = (format: ImageFormat, at: readonly ImageWidth[]) =>
    srcsetOf(at, image.width, (width) => imageHref(links, target, width, format));
  // Browsers that take neither AVIF nor WebP (none released since 2020) get one JPEG at the
  // layout's width, not a ladder of them: each would be one more picture to make for nobody.
  const fallback = widthAtLeast(
    Math.min(widthAtLeast(layout.maxWidth), widths.at(-1) ?? DEFAULT_WIDTH),
  );
  return {
    sources: MODERN.map((format) => ({ type: formatType(format), srcset: set(format, widths) })),
    src: imageHref(links, target, fallback, 'jpeg'),
    srcset: set('jpeg', [fallback]),
    sizes: layout.sizes,
    ...size,
  };
}

/** `<picture>` data for an upstream picture; null without one or from a host not allowed. */
export function upstreamPicture(
  links: ImageLinks,
  image: UpstreamImage,
  layout: PictureLayout,
): Picture | null {
  const { url } = image;
  if (!url) return null;
  const make = () =>
    sourceAllowed(links.tenant, url)
      ? pictureFor(links, { kind: 'source', source: url }, image, layout)
      : null;
  if (links.scope === undefined) return make();
  const key = `${objectId(links.tenant)}\0${links.scope}\0${links.secret}\0${layout.sizes}\0${layout.maxWidth}\0${image.width}\0${image.height}\0${image.assumedRatio}\0${url}`;
  return remembered(key, make);
}

/**
 * Pictures made before, per tenant settings object and link scope: every card of every render shows
 * one, each address signed. Shared between renders, so never changed by a caller.
 */
const remembered = memo((_key: string, make: () => Picture | null) => make(), {
  maxBytes: 4 * 1024 * 1024,
  bytes: (picture, key) =>
    key.length +
    (picture
      ? picture.src.length +
        picture.srcset.length +
        picture.sizes.length +
        picture.sources.reduce((bytes, source) => bytes + source.srcset.length, 0)
      : 1),
});
