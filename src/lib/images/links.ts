import type { Edition, PostSummary } from '../publishing/schema.ts';
import { EDITION_COVER } from './layouts.ts';
import { upstreamPicture, type ImageLinks, type PictureLayout } from './picture.ts';
import { imageSecret } from './shared-pipeline.ts';

type ImageLocals = Pick<App.Locals, 'tenant' | 'href' | 'tenantMatchOrNull'>;

/** The image links of the page being rendered (`Astro.locals` of a tenant's request). */
export function imageLinks(locals: ImageLocals): ImageLinks {
  const match = locals.tenantMatchOrNull;
  return {
    secret: imageSecret(),
    tenant: locals.tenant,
    href: locals.href,
    // What `href` depends on besides the tenant (src/lib/tenants/resolution.ts, tenantHref).
    scope: match ? `${match.via}\0${match.basePath}` : undefined,
  };
}

/**
 * An edition's cover through the image route (the e-paper list, the paywall, the front page's
 * promo). The contract gives no cover size: a printed page's 3:4.
 */
export function editionCover(
  locals: ImageLocals,
  edition: Pick<Edition, 'cover_image_url'>,
  layout: PictureLayout = EDITION_COVER,
) {
  const cover = { url: edition.cover_image_url, assumedRatio: 4 / 3 };
  return upstreamPicture(imageLinks(locals), cover, layout);
}

/** A post's cover (the article's, a card's) through the image route, at its upstream size. */
export function postCover(links: ImageLinks, post: PostSummary, layout: PictureLayout) {
  const { cover_image_url: url, cover_image_width: width, cover_image_height: height } = post;
  return upstreamPicture(links, { url, width, height }, layout);
}
