import { defineMiddleware, sequence } from 'astro:middleware';
import { settings } from './lib/settings/settings.ts';
import { installTenantLocals } from './lib/tenants/locals.ts';
import { logError, requestContext } from './lib/log/log.ts';
import { metricsResponse, statusResponse } from './lib/delivery/status-access.ts';
import { NO_STORE, uncachedRedirect, unshared } from './lib/delivery/policy.ts';
import { getTenants, tenantRegistry } from './lib/tenants/registry.ts';
import { appendVary, maybeCompress } from './lib/delivery/compression.ts';
import { trimPolicy } from './lib/delivery/csp.ts';
import { askedAddress, pagedRoute } from './lib/reading/paged-routes.ts';
import { upstreamVisitor } from './lib/request/upstream-visitor.ts';
import { visitorOf } from './lib/request/visitor.ts';
import { tenantOfRequest } from './lib/request/public-origin.ts';
import { namedHost, type TenantMatch } from './lib/tenants/resolution.ts';
import { noteRequest } from './lib/observability/request.ts';
import { startFreshness } from './lib/freshness/start.ts';
import { purgeEndpoint } from './lib/freshness/purge-route.ts';
import {
  foreignWriteHost,
  foreignWriteRefusal,
  isCrossSiteFormPost,
} from './lib/request/host-guard.ts';
import { isNonFormActionBody, judgeBody, wantsJson } from './lib/request/body-limit.ts';
import {
  edgeRefusalJson,
  refusalPageRequest,
  urlRefusal,
  type EdgeRefusal,
} from './lib/request/refusals.ts';
import { answerI18n } from './lib/booking/api/json.ts';
import { createI18n } from './lib/i18n/index.ts';
import { formPosts } from './lib/forms/middleware.ts';
import { SENT_PARAM } from './lib/forms/after-post.ts';
import { cleanRedirect, normalEscapes, shareableParams } from './lib/request/clean-url.ts';
import { refusedMethod } from './lib/request/page-methods.ts';
import { setFraming } from './lib/request/framing.ts';
import { frameAncestorsOf } from './lib/booking/embed/settings.ts';

const { COMPRESSION, METRICS_TOKEN, REDIS_URL, STATUS_TOKEN, TRUST_PROXY } = settings();
// The change watchers and the invalidation listener run from the moment the site loads.
startFreshness();

/**
 * Brotli or gzip for text responses (`COMPRESSION=false` behind a proxy that compresses). It runs
 * inside Astro's route cache, so a cached page keeps its compressed bytes (and its length): hits
 * cost no compression.
 */
const compressResponses = defineMiddleware(async (context, next) =>
  maybeCompress(await next(), {
    method: context.request.method,
    acceptEncoding: context.request.headers.get('accept-encoding'),
    compress: COMPRESSION,
  }),
);

/**
 * Every answer on a host no tenant names exactly (a made-up host's `/<id>/`, `?tenant=` or 404
 * page, a wildcard's made-up subdomain) is kept by no shared cache (`unshared`): the edge keys its
 * copies by host, so strangers could fill its disk. Outermost, so the route cache stores it so too.
 */
const sharedOnNamedHostsOnly = defineMiddleware(async (context, next) => {
  const response = await next();
  const control = response.headers.get('Cache-Control');
  const host = new URL(context.locals.visitor.origin).host;
  if (control && !namedHost(host, getTenants()))
    response.headers.set('Cache-Control', unshared(control));
  return response;
});

/**
 * What is settled before the tenant: who sent the request from which origin (`locals.visitor`,
 * once: src/lib/request/visitor.ts); what the edge refuses (src/lib/request/refusals.ts), answered
 * in the tenant's language once it is known; and the operator endpoints `/_status` (upstream
 * counters as JSON) and `/_metrics` (Prometheus text), for every tenant at once: local requests,
 * or with the bearer token of each.
 */
const gate = defineMiddleware((context, next) => {
  const visitor = (context.locals.visitor = visitorOf(context, TRUST_PROXY));
  const refusal =
    urlRefusal(context.request.url) ??
    (context.isPrerendered ? undefined : refusedPost(context.request, visitor.origin));
  if (refusal) {
    context.locals.edgeRefusal = refusal;
    return next();
  }
  const { pathname } = context.url;
  if (pathname !== '/_status' && pathname !== '/_metrics') return next();
  const access = { local: visitor.local, headers: context.request.headers, redisUrl: REDIS_URL };
  return pathname === '/_metrics'
    ? metricsResponse({ ...access, token: METRICS_TOKEN })
    : statusResponse({ ...access, token: STATUS_TOKEN });
});

/** A body refused by its headers (checked first: it is never read), a cross-site form post, or not a form to an action. */
function refusedPost(request: Request, origin: string): EdgeRefusal | undefined {
  const verdict = judgeBody(request);
  if (verdict !== 'ok') return verdict;
  if (isCrossSiteFormPost(request, origin)) return 'cross-site';
  return isNonFormActionBody(request) ? 'not-a-form' : undefined;
}

/** Resolves the tenant (host, `/<id>/` prefix, `?tenant=`), strips the prefix and maps `/page/N` before routing. */
const tenantResolution = defineMiddleware(async (context, next) => {
  lazyRequestId(context.locals);
  const match = tenantOfRequest(
    context.url,
    context.request.headers,
    context.locals.visitor.origin,
  );
  installTenantLocals(context.locals, match);
  // A request inside the booking embed's frame: whatever page answers it may be framed as the embed is.
  if (match?.pathname.startsWith('/embed/'))
    context.locals.embedAncestors = frameAncestorsOf(match.tenant);
  noteRequest(match?.tenant.id, context.routePattern);
  const { edgeRefusal } = context.locals;
  if (edgeRefusal) {
    // Nothing reads the body: JSON callers get the API's error, a browser the tenant's page.
    if (!wantsJson(context.request)) return next(refusalPageRequest(context.request, context.url));
    const i18n = match ? answerI18n(context) : createI18n('en', 'UTC');
    return edgeRefusalJson(edgeRefusal, i18n);
  }
  if (!match) {
    // Never fall back to a default tenant: an unknown site is a 404.
    return context.url.pathname === '/404' ? next() : next(new URL('/404', context.url));
  }
  // The first pass only: a page's rewrite (to /404, /503) runs this again for the page it shows.
  context.locals.askedAddress ??= askedAddress(match.pathname, context.url);
  const clean = cleanAddress(context.request.method, context.request.url, match);
  if (clean) return clean;
  const paged = pagedRoute(match.pathname, context.url.searchParams);
  if (paged && 'redirect' in paged)
    return uncachedRedirect(301, context.locals.href(paged.redirect));
  if (paged) return next(new URL(paged.rewrite, context.url));
  if (match.via === 'path') return next(new URL(match.pathname + context.url.search, context.url));
  return next();
});

/** `locals.requestId`, made the first time something reads it (an error's log line, most often none). */
function lazyRequestId(locals: App.Locals): void {
  let id: string | undefined;
  Object.defineProperty(locals, 'requestId', {
    configurable: true,
    enumerable: true,
    get: () => (id ??= crypto.randomUUID()),
  });
}

/**
 * A shareable page asked with a trailing slash, needless escapes (`/posts/%74all`) or query parameters it does not
 * read: a redirect to the clean address (never stored), so no cache holds one copy per made-up spelling of a page
 * (src/lib/request/clean-url.ts).
 */
function cleanAddress(
  method: string,
  requestUrl: string,
  { pathname, via }: Pick<TenantMatch, 'pathname' | 'via'>,
): Response | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  // Without a query, an escape or a trailing slash there is nothing to clean (most requests): no
  // URL parsed, no route looked up.
  const slashed = pathname.length > 1 && pathname.endsWith('/');
  if (!slashed && !/[?%]/.test(requestUrl)) return null;
  const url = new URL(requestUrl);
  // A form's landing (`?posted=`): private, or a redirect to the page without it (`formPosts`).
  if (url.searchParams.has(SENT_PARAM)) return null;
  // `?tenant=` picks the tenant only where nothing else did (a preview).
  const allowed = shareableParams(normalEscapes(pathname), via === 'query');
  const location = allowed && cleanRedirect(url, allowed, slashed);
  return location ? uncachedRedirect(301, location) : null;
}

/**
 * A method the page does not take (./lib/request/page-methods.ts): 405 with `Allow`, never stored,
 * the tenant's page for a browser and the API's error for a JSON caller; the body is never read.
 * Endpoints answer their methods themselves.
 */
const pageMethodsOnly = defineMiddleware(async (context, next) => {
  const allow = refusedMethod(context.request.method, context.routePattern);
  if (!allow) return next();
  context.locals.edgeRefusal = 'method';
  const response = wantsJson(context.request)
    ? edgeRefusalJson('method', answerI18n(context))
    : await next(refusalPageRequest(context.request, context.url));
  response.headers.set('Allow', allow);
  return response;
});

/**
 * A write on a host that is not the tenant's own is refused before anything runs
 * (./lib/request/host-guard.ts): a JSON caller gets the API's error, a form the tenant's 421 page
 * (in its language, with a link to its own address).
 */
const tenantHostWrites = defineMiddleware((context, next) => {
  const host = foreignWriteHost(context.request.method, context.locals.tenantMatchOrNull);
  if (!host) return next();
  if (wantsJson(context.request)) return foreignWriteRefusal(context.request, host);
  return next(new URL('/421', context.url));
});

/**
 * Logs unexpected errors with tenant and path (Astro then renders the branded 500 page), and sets
 * the headers every response gets.
 */
const errorsAndHeaders = defineMiddleware(async (context, next) => {
  const tenants = tenantRegistry().version();
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    logError('request.failed', requestContext(context), error);
    throw error;
  }
  // Rendered while a reload of tenants.json changed the sites (this one, or whose an address is):
  // answered as it was rendered, kept by no cache.
  if (tenantRegistry().version() !== tenants) {
    context.cache.set(false);
    response.headers.set('Cache-Control', NO_STORE);
  }
  response.headers.set('X-Content-Type-Options', 'nosniff');
  trimPolicy(response.headers);
  // A private page (the booking's manage page and its .ics) sets `strict-origin` itself: kept.
  if (!response.headers.has('Referrer-Policy')) {
    response.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  }
  // Nobody frames a page, but the booking embed's and the error pages answering it (413, 421, 400 …).
  setFraming(response.headers, context.locals.embedAncestors, context.url.pathname);
  // Behind a trusted proxy the tenant can come from X-Forwarded-Host, so shared caches must key on it.
  if (TRUST_PROXY) appendVary(response.headers, 'X-Forwarded-Host');
  return response;
});

export const onRequest = sequence(
  sharedOnNamedHostsOnly,
  compressResponses,
  gate,
  tenantResolution,
  // After the purge endpoint: a purge carries its own secret, wherever it is sent.
  purgeEndpoint,
  pageMethodsOnly,
  tenantHostWrites,
  upstreamVisitor,
  errorsAndHeaders,
  // Every form: POST → 303 → GET, the action's result kept in the session (src/lib/forms/).
  formPosts,
);
