import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { settings } from '../settings/settings.ts';
import { logWarn } from '../log/log.ts';
import { ImagePipeline } from './pipeline.ts';

/**
 * The image route's settings (src/lib/settings/schema.ts), read once per process. The key and the
 * pipeline live on `globalThis`: `npm start`'s server loads this module beside the built site's
 * copy of it (scripts/start.mjs serves warm images before the site's handler), and both must use
 * the same signing key and the same disk index. Only the site makes the pipeline (its errors are
 * the site's `ImageError`s); the warm path uses it once made.
 */
const shared = globalThis as typeof globalThis & {
  [key: symbol]: { secret?: string; pipeline?: ImagePipeline } | undefined;
};
const KEY = Symbol.for('masthead.images');
const state = (shared[KEY] ??= {});

/**
 * `IMAGE_SIGNING_SECRET` (16+ characters, checked at start), or a random one for this process (dev,
 * tests, one server): image addresses then change on restart, and servers behind one edge must
 * share the variable.
 */
export function imageSecret(): string {
  if (state.secret) return state.secret;
  const { IMAGE_SIGNING_SECRET } = settings();
  if (!IMAGE_SIGNING_SECRET) {
    logWarn('images.signing_secret_missing', {
      note: 'IMAGE_SIGNING_SECRET is unset: image addresses change when this process restarts',
    });
  }
  state.secret = IMAGE_SIGNING_SECRET ?? randomBytes(32).toString('hex');
  return state.secret;
}

/** The pipeline if the site has made it (the warm path never makes one). */
export const madePipeline = (): ImagePipeline | undefined => state.pipeline;

/** The process's image pipeline (disk cache under `IMAGE_CACHE_DIR`, default `.cache/images`). */
export function imagePipeline(): ImagePipeline {
  const config = settings();
  state.pipeline ??= new ImagePipeline({
    cacheDir: config.IMAGE_CACHE_DIR || join(process.cwd(), '.cache', 'images'),
    cacheMaxBytes: config.IMAGE_CACHE_MAX_BYTES,
    maxBytes: config.IMAGE_SOURCE_MAX_BYTES,
    maxPixels: config.IMAGE_SOURCE_MAX_PIXELS,
    timeoutMs: config.IMAGE_TIMEOUT_MS,
    transforms: config.IMAGE_TRANSFORMS,
  });
  return state.pipeline;
}
