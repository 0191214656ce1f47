import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { settings } from '../settings/settings.ts';
import { logWarn } from '../log/log.ts';
import { ImagePipeline } from './pipeline.ts';

/**
 * The key and the pipeline live on `globalThis`: `npm start`'s server (scripts/start.mjs serves warm
 * images before the site's handler) loads this module beside the built site's copy, and both must
 * share the signing key and the disk index. Only the site makes the pipeline.
 */
const shared = globalThis as typeof globalThis & {
  [key: symbol]: { secret?: string; pipeline?: ImagePipeline } | undefined;
};
const KEY = Symbol.for('masthead.images');
const state = (shared[KEY] ??= {});

/** `IMAGE_SIGNING_SECRET`, or a random one for this process (addresses then change on restart). */
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
