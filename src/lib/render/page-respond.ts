import type { AstroGlobal } from 'astro';
import { failedLoad, NO_STORE, PRIVATE, sharedCache, type PublicLife } from '../delivery/policy.ts';
import { warmNavigation } from '../reading/loaders.ts';

/** Shared by every page (reading, account, booking): failure pages and cache headers (../delivery/policy.ts). */

type PageContext = Pick<AstroGlobal, 'rewrite' | 'locals' | 'url' | 'request'>;

/**
 * Runs a page's data loader and turns failures into the right page: 404 for a missing resource,
 * the branded 503 with `Retry-After` for an outage or rate limit (never a 500). Anything else is a
 * bug and goes on to the 500 page. (The client has already logged the upstream failure.) The
 * header's categories are read alongside (not for a posted form, which is answered with a redirect).
 */
export async function loadOrRespond<T>(
  Astro: PageContext,
  loader: () => Promise<T>,
): Promise<T | Response> {
  try {
    const data = loader();
    // After the page's own first reads: they come first when the budget is short.
    if (Astro.request.method !== 'POST') warmNavigation(Astro.locals.tenant);
    return await data;
  } catch (error) {
    const answer = failedLoad(error);
    if (answer.status === 404) return notFound(Astro);
    Astro.locals.retryAfter = answer.retryAfter;
    return Astro.rewrite(Astro.locals.href('/503'));
  }
}

export function notFound(Astro: PageContext): Promise<Response> {
  return Astro.rewrite(Astro.locals.href('/404'));
}

interface CacheRule extends Required<PublicLife> {
  tags?: string[];
}

/** Public, tenant-wide pages: CDN-cacheable, and held in Astro's route cache on this server. */
export function cachePublic(Astro: Pick<AstroGlobal, 'response' | 'cache'>, rule: CacheRule): void {
  Astro.response.headers.set('Cache-Control', sharedCache(rule.maxAge, rule.swr));
  Astro.cache.set(rule);
}

/** Anything that depends on the visitor (session, form results): never stored by a shared cache. */
export function cachePrivate(Astro: Pick<AstroGlobal, 'response'>): void {
  Astro.response.headers.set('Cache-Control', PRIVATE);
  Astro.response.headers.append('Vary', 'Cookie');
}

/**
 * An error page's status (ErrorPage.astro shows it) and `headers` (`Retry-After`): no cache keeps
 * it unless they say (a site's 404).
 */
export function errorAnswer(
  Astro: Pick<AstroGlobal, 'response'>,
  status: number,
  headers: Record<string, string> = {},
): void {
  Astro.response.status = status;
  // Node's reason phrase for the status (`414 URI Too Long`), not Astro's `OK` of a page's 200.
  Astro.response.statusText = '';
  for (const [name, value] of Object.entries({ 'Cache-Control': NO_STORE, ...headers })) {
    Astro.response.headers.set(name, value);
  }
}

/**
 * A page or feed standing in for the one asked for (a post's list entry while its full text cannot
 * be read): no cache keeps it (the edge, the route cache and browsers ask again, as its refresh
 * does), and crawlers do not index it.
 */
export function standIn(headers: Headers): void {
  headers.set('Cache-Control', NO_STORE);
  headers.set('X-Robots-Tag', 'noindex');
}
