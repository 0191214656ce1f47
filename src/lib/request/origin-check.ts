import { uncached } from '../delivery/policy.ts';

/**
 * Astro's `security.checkOrigin`, with one difference: the expected origin is the visitor's public
 * origin (see `publicOrigin`), so forms still work behind a trusted proxy that rewrites `Host`.
 * Astro's own check compares with `Host` and runs before any middleware, hence it is off in
 * astro.config.mjs and this runs first in `src/middleware-chain.ts`. Same rules as Astro: only unsafe
 * methods; form-like bodies (urlencoded, multipart, text/plain) and bodies without a type must come
 * from the same origin; JSON is left to CORS.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export function isCrossSiteFormPost(request: Request, expectedOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const sameOrigin = request.headers.get('origin') === expectedOrigin;
  const type = request.headers.get('content-type');
  if (type === null) return !sameOrigin;
  const formLike = FORM_TYPES.some((form) => type.toLowerCase().includes(form));
  return formLike && !sameOrigin;
}

export function crossSiteForbidden(request: Request): Response {
  return uncached(403, `Cross-site ${request.method} form submissions are forbidden`);
}
