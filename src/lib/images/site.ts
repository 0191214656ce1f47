import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { settings } from '../settings/settings.ts';
import { logWarn } from '../log/log.ts';
import { ImagePipeline } from './pipeline.ts';

/** The image route's settings (src/lib/settings/schema.ts), read once per process. */

let secret: string | undefined;
let pipeline: ImagePipeline | undefined;

/**
 * `IMAGE_SIGNING_SECRET`, or a random one for this process (dev, tests, one server): image
 * addresses then change on restart, and servers behind one edge must share the variable.
 */
export function imageSecret(): string {
  if (secret) return secret;
  const { IMAGE_SIGNING_SECRET } = settings();
  if (IMAGE_SIGNING_SECRET && IMAGE_SIGNING_SECRET.length >= 16) {
    secret = IMAGE_SIGNING_SECRET;
  } else {
    secret = randomBytes(32).toString('hex');
    logWarn('images.signing_secret_missing', {
      note: 'IMAGE_SIGNING_SECRET is unset (or shorter than 16 characters): image addresses change when this process restarts',
    });
  }
  return secret;
}

/** The process's image pipeline (disk cache under `IMAGE_CACHE_DIR`, default `.cache/images`). */
export function imagePipeline(): ImagePipeline {
  const {
    IMAGE_CACHE_DIR,
    IMAGE_CACHE_MAX_BYTES,
    IMAGE_SOURCE_MAX_BYTES,
    IMAGE_SOURCE_MAX_PIXELS,
    IMAGE_TIMEOUT_MS,
    IMAGE_TRANSFORMS,
  } = settings();
  pipeline ??= new ImagePipeline({
    cacheDir: IMAGE_CACHE_DIR || join(process.cwd(), '.cache', 'images'),
    cacheMaxBytes: IMAGE_CACHE_MAX_BYTES,
    maxBytes: IMAGE_SOURCE_MAX_BYTES,
    maxPixels: IMAGE_SOURCE_MAX_PIXELS,
    timeoutMs: IMAGE_TIMEOUT_MS,
    transforms: IMAGE_TRANSFORMS,
  });
  return pipeline;
}
