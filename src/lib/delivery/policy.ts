import { classify, isTemporary, type Failure } from '../failures/classify.ts';
import { textKey } from '../i18n/text-key.ts';

/**
 * The one policy for how long answers live in caches and what a failure answers: pages
 * (../pages/respond.ts), feeds, images, operator and JSON endpoints all take their `Cache-Control`
 * and `Retry-After` from here. Cache tags live beside it (./cache-tags.ts).
 */

/** Refusals, redirects, operator answers: no cache keeps them. */
export const NO_STORE = 'no-store';
/** Whatever depends on the visitor (session, a form's result, a subscriber's image or style). */
export const PRIVATE = 'private, no-store';
/** Addresses that change with their content (hashed assets, derived images). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Another width standing in for a picture still being made (../images/pipeline.ts `answer`): kept a
 * short while, so a cache asks again once the picture itself is made.
 */
export const STAND_IN = 'public, max-age=30';
/**
 * A public answer's life in seconds, the same for browsers (`publicCache`) and for the route cache
 * and edge (`cache.set`, which tags it with the tenant, so a reload of tenants.json drops it).
 */
export interface PublicLife {
  maxAge: number;
  swr?: number;
}
/** robots.txt: crawlers and browsers may keep it an hour (it changes with tenants.json only). */
export const ROBOTS: PublicLife = { maxAge: 3600 };
/** The embed loader on partners' pages: browsers keep it 5 minutes, then use it while refreshing. */
export const EMBED_LOADER: PublicLife = { maxAge: 300, swr: 3600 };

export function publicCache({ maxAge, swr }: PublicLife): string {
  return `public, max-age=${maxAge}${swr === undefined ? '' : `, stale-while-revalidate=${swr}`}`;
}

/** Public answers: browsers ask every time; shared caches keep them `maxAge` s, then `swr` s stale. */
export function sharedCache(maxAge: number, swr?: number): string {
  const revalidate = swr === undefined ? '' : `, stale-while-revalidate=${swr}`;
  return `public, max-age=0, s-maxage=${maxAge}${revalidate}, stale-if-error=86400`;
}

/**
 * A site's page not found (a post taken down): shared caches keep it 10 s. An edge refreshing its
 * stale copy of the page must be able to store the answer: nginx keeps serving the stale copy for
 * as long as its refresh answers what it may not store.
 */
export const NOT_FOUND = sharedCache(10);

/**
 * `cacheControl` for an answer on a host no tenant names exactly (a `/<id>/` or `?tenant=` page on
 * any host, a wildcard's subdomain, a 404 there): anyone can make such hosts up, and an edge keys
 * its copies by host, so a flood of them would fill its disk. No shared cache keeps it (`private`,
 * no `s-maxage`); a browser keeps it as before. Astro's route cache keeps one copy for them all
 * (`cacheHostOf`, ../tenants/resolution.ts).
 */
export function unshared(cacheControl: string): string {
  const directives = cacheControl
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !/^(public|s-maxage=.*)$/i.test(directive));
  const kept = directives.some((directive) => /^(private|no-store)$/i.test(directive));
  return (kept ? directives : ['private', ...directives]).join(', ');
}

/** Seconds to wait after an outage when the failure itself does not say (pages, feeds, images). */
export const RETRY_AFTER_SECONDS = 30;

/** A failure that passes with time: the upstream down or busy. */
export type Refusal = Extract<Failure, { kind: 'outage' | 'busy' }>;

export function retryAfterOf(failure: Refusal): number {
  return failure.retryAfterSeconds ?? RETRY_AFTER_SECONDS;
}

/**
 * The one decision of what a failed read answers, on every surface (a page, a feed or file, the
 * framed widget, a part a page does without): 404 for what is not there, 503 with `Retry-After`
 * while the upstream is down or busy (readers come back); anything else is a bug, thrown on to the
 * 500 page.
 */
export function failedLoad(
  error: unknown,
): { status: 404 } | { status: 503; retryAfter: number; failure: Refusal } {
  const failure = classify(error);
  if (failure.kind === 'not-found') return { status: 404 };
  if (!isTemporary(failure)) throw error;
  return { status: 503, retryAfter: retryAfterOf(failure), failure };
}

/** The failure `failedLoad` answers 503 (a part or stand-in serves instead); others thrown on. */
export function refusalOf(error: unknown): Refusal {
  const answer = failedLoad(error);
  if (answer.status !== 503) throw error;
  return answer.failure;
}

/**
 * Seconds before a stand-in page (a post's list entry while its full text cannot be read) reloads
 * itself (`<meta http-equiv="refresh">`): the failure's `Retry-After`, at least 5 s so an open tab
 * is no retry loop. The page itself is `NO_STORE`: no cache keeps it as the post.
 */
export function refreshAfterOf(failure: Refusal): number {
  return Math.max(5, retryAfterOf(failure));
}

/** A plain-text answer no cache keeps (`headers` add to or replace the defaults). */
export function uncached(status: number, text: string, headers: Record<string, string> = {}) {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_STORE, ...headers },
  });
}

export function uncachedJson(status: number, body: unknown, headers: Record<string, string> = {}) {
  return uncached(status, JSON.stringify(body), { 'Content-Type': 'application/json', ...headers });
}

/**
 * A redirect no cache keeps. Also every redirect that depends on the session (signed in or not): a
 * browser replays a kept one on Back, and two of them (account → login → account) loop.
 */
export function uncachedRedirect(status: 301 | 302 | 303, location: string): Response {
  return new Response(null, { status, headers: { Location: location, 'Cache-Control': NO_STORE } });
}

/** `failedLoad`'s answer as a feed, sitemap or file gives it: plain text no cache keeps. */
export function failureAnswer(error: unknown): Response {
  const answer = failedLoad(error);
  if (answer.status === 404) return uncached(404, 'Not found');
  return uncached(503, 'Temporarily unavailable', { 'Retry-After': String(answer.retryAfter) });
}

/**
 * What a form says about a temporary failure: `<area>.busy` with the wait (429), or
 * `<area>.unavailable` (503); null for any other failure.
 */
export function temporaryMessage(
  failure: Failure,
  area: 'auth' | 'comments.error' | 'booking.error',
) {
  if (failure.kind === 'busy') {
    const wait = failure.retryAfterSeconds;
    return {
      status: 429,
      message: textKey(`${area}.busy`, { wait }),
      retryAfterSeconds: wait,
    } as const;
  }
  if (failure.kind !== 'outage') return null;
  return { status: 503, message: textKey(`${area}.unavailable`) } as const;
}
