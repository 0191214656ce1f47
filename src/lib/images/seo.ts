import { imagePath, IMAGE_CROPS, type ImageCrop } from './address.ts';
import type { ImageLinks } from './picture.ts';
import { sourceAllowed } from './sources.ts';

/** Open Graph and article images are 1200 px wide JPEGs (what every social card and crawler reads). */
const SOCIAL_WIDTH = 1200;

/** The `og:image` of an upstream picture (`crop`: cut to it): 1200 px wide, on the site's origin; null without one. */
export function socialImage(
  links: ImageLinks,
  url: string | null | undefined,
  origin: string,
  crop?: ImageCrop,
): string | null {
  if (!url || !sourceAllowed(links.tenant, url)) return null;
  const target = { kind: 'source', source: url } as const;
  // On the tenant's own origin (like the canonical URL), so no path prefix.
  const path = imagePath(links.secret, { target, width: SOCIAL_WIDTH, format: 'jpeg', crop });
  return new URL(path, origin).toString();
}

/** A NewsArticle's `image`: the picture cropped to 16:9, 4:3 and 1:1 (Google's Top stories guidance). */
export function articleImages(
  links: ImageLinks,
  url: string | null | undefined,
  origin: string,
): string[] {
  return IMAGE_CROPS.flatMap((crop) => socialImage(links, url, origin, crop) ?? []);
}
