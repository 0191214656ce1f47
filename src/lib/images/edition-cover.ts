import type { Edition } from '../publishing/schema.ts';
import { EDITION_COVER } from './layouts.ts';
import type { PictureLayout } from './picture.ts';
import { imageLinks } from './links.ts';
import { upstreamPicture } from './picture.ts';

/**
 * An edition's cover through the image route (the e-paper list, the paywall, the front page's
 * promo). The contract gives no cover size: a printed page's 3:4.
 */
export function editionCover(
  locals: Pick<App.Locals, 'tenant' | 'href' | 'tenantMatchOrNull'>,
  edition: Pick<Edition, 'cover_image_url'>,
  layout: PictureLayout = EDITION_COVER,
) {
  return upstreamPicture(
    imageLinks(locals),
    { url: edition.cover_image_url, assumedRatio: 4 / 3 },
    layout,
  );
}
