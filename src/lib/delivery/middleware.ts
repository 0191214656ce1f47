import { defineMiddleware } from 'astro:middleware';
import { COMPRESSION, REDIS_URL } from 'astro:env/server';
import { getTenants } from '../tenants/registry.ts';
import { maybeCompress } from './compression.ts';
import { checkHealth, healthResponse } from './health.ts';

/** `/_health` for load balancers: config and shared store, before any tenant is resolved. */
export const healthEndpoint = defineMiddleware(async (context, next) => {
  if (context.url.pathname !== '/_health') return next();
  return healthResponse(await checkHealth({ readConfig: getTenants, redisUrl: REDIS_URL }));
});

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
