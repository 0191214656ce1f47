import type { CacheOptions } from 'astro';
import { currentRequest } from '../log/request-context.ts';
import { tenantOfRequest } from '../request/public-origin.ts';

/**
 * The headers of a cacheable response (the route cache provider's `setHeaders`): Astro's own
 * (`CDN-Cache-Control`, `Cache-Tag` for the route cache, which Astro removes before sending) plus
 * the tenant's tag on every page and `Surrogate-Key` with the same tags for an edge or CDN that
 * purges by key (docs/deploy.md). Tags are `<tenant>`, `<tenant>:posts`, `<tenant>:post:<slug>`…
 */
export function cacheHeaders(options: CacheOptions, request: Request): Headers {
  const headers = new Headers();
  const directives = [
    ...(options.maxAge === undefined ? [] : [`max-age=${options.maxAge}`]),
    ...(options.swr === undefined ? [] : [`stale-while-revalidate=${options.swr}`]),
  ];
  if (directives.length > 0) headers.set('CDN-Cache-Control', directives.join(', '));
  // The tenant the middleware found: a `/<id>/` address reaches here rewritten, without its prefix.
  const tenant =
    currentRequest()?.tenant ?? tenantOfRequest(new URL(request.url), request.headers)?.tenant.id;
  const tags = [...new Set([...(tenant ? [tenant] : []), ...(options.tags ?? [])])];
  if (tags.length > 0) {
    headers.set('Cache-Tag', tags.join(', '));
    headers.set('Surrogate-Key', tags.join(' '));
  }
  if (options.lastModified) headers.set('Last-Modified', options.lastModified.toUTCString());
  if (options.etag) headers.set('ETag', options.etag);
  return headers;
}
