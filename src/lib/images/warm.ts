import { publicPicture } from './pipeline.ts';
import { queryRefused } from './errors.ts';
import { imageHeaders, imageRefused } from './respond.ts';
import { IMMUTABLE } from '../delivery/policy.ts';
import { imageSecret, madePipeline } from './shared-pipeline.ts';

type WarmImage = { bytes: Buffer; headers: Record<string, string> };

const PUBLIC_IMAGE = /^(?:\/[^/]+)?(\/_img\/u\/[^?]+)$/;

/**
 * A public derived image already on disk, for `npm start`'s server to answer before the site's
 * handler (no middleware, no sharp); null for anything else (a cold image, a subscriber's page, an
 * unsigned address), which the route handles. A file is on disk only once the route made it.
 */
export async function warmImage(url: string): Promise<WarmImage | null> {
  const path = PUBLIC_IMAGE.exec(url)?.[1];
  const pipeline = madePipeline();
  if (!path || !pipeline) return null;
  const picture = publicPicture(imageSecret(), path);
  const bytes = picture && (await pipeline.store.get(picture.key));
  return picture && bytes
    ? { bytes, headers: imageHeaders(bytes, picture.format, IMMUTABLE) }
    : null;
}

/**
 * The route's 404 for an image address ending in a bare `?`, which the adapter drops before the
 * route could see it while an edge cache keys on it (a second copy of the picture); null otherwise.
 */
export function bareQueryRefusal(url: string): Response | null {
  if (!url.includes('/_img/') || url.indexOf('?') !== url.length - 1) return null;
  return imageRefused(queryRefused());
}
