import { defineMiddleware } from 'astro:middleware';
import { settings } from '../settings/settings.ts';
import { maybeCompress } from './compression.ts';

const { COMPRESSION } = settings();

/**
 * Brotli or gzip for text responses (`COMPRESSION=false` behind a proxy that compresses). It runs
 * inside Astro's route cache, so a cached page keeps its compressed bytes (and its length): hits
 * cost no compression.
 */
export const compressResponses = defineMiddleware(async (context, next) => {
  return maybeCompress(await next(), {
    method: context.request.method,
    acceptEncoding: context.request.headers.get('accept-encoding'),
    compress: COMPRESSION,
  });
});
