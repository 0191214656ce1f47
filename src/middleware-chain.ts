import { defineMiddleware, sequence } from 'astro:middleware';
import { settings } from './lib/settings/settings.ts';
import { installTenantLocals } from './lib/tenants/locals.ts';
import { logError } from './lib/log/log.ts';
import { metricsResponse, statusResponse } from './lib/delivery/status-access.ts';
import { uncached, uncachedRedirect } from './lib/delivery/policy.ts';
import { maybeCompress } from './lib/delivery/compression.ts';
import { trimPolicy } from './lib/delivery/csp.ts';
import { pagedRoute } from './lib/reading/paged-routes.ts';
import { upstreamVisitor } from './lib/request/upstream-visitor.ts';
import { visitorOf } from './lib/request/visitor.ts';
import { tenantOfRequest } from './lib/request/public-origin.ts';
import { noteRequest } from './lib/observability/request.ts';
import { startFreshness } from './lib/freshness/start.ts';
import { purgeEndpoint } from './lib/freshness/purge-route.ts';
import {
  crossSiteForbidden,
  foreignWriteHost,
  foreignWriteRefusal,
  isCrossSiteFormPost,
} from './lib/request/host-guard.ts';
import { judgeBody, refuseBody } from './lib/request/body-limit.ts';
import { formPosts } from './lib/forms/middleware.ts';
import { SENT_PARAM } from './lib/forms/after-post.ts';
import {
  cleanRedirect,
  isDoublyEscaped,
  MAX_URL_LENGTH,
  shareableParams,
} from './lib/request/clean-url.ts';

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

/** Decides who sent the request and from which origin, once (`locals.visitor`, src/lib/request/visitor.ts). */
const visitor = defineMiddleware((context, next) => {
  context.locals.visitor = visitorOf(context, TRUST_PROXY);
  return next();
});

/**
 * `/_status` (upstream counters as JSON) and `/_metrics` (Prometheus text), for every tenant at
 * once: local requests, or with the bearer token of each.
 */
const operatorEndpoints = defineMiddleware((context, next) => {
  const { pathname } = context.url;
  if (pathname !== '/_status' && pathname !== '/_metrics') return next();
  const { local } = context.locals.visitor;
  const access = { local, headers: context.request.headers, redisUrl: REDIS_URL };
  return pathname === '/_metrics'
    ? metricsResponse({ ...access, token: METRICS_TOKEN })
    : statusResponse({ ...access, token: STATUS_TOKEN });
});

/** Refuses cross-site form posts, comparing with the public origin (Astro's own check is off). */
const originCheck = defineMiddleware((context, next) => {
  if (context.isPrerendered) return next();
  return isCrossSiteFormPost(context.request, context.locals.visitor.origin)
    ? crossSiteForbidden(context.request)
    : next();
});

/** Addresses no page takes: too long (414), or escapes that only a second decoding would resolve (400). */
const urlShape = defineMiddleware((context, next) => {
  // The request as sent: `context.url` has its path decoded already. A short address without
  // escapes (most requests) is neither, and is not parsed again.
  const sent = context.request.url;
  if (sent.length <= MAX_URL_LENGTH && !sent.includes('%')) return next();
  const { pathname, search } = new URL(sent);
  if (pathname.length + search.length > MAX_URL_LENGTH) {
    return uncached(414, 'This address is too long.');
  }
  // Astro decodes a path until it stops changing: `%252E` would reach a page as `.`.
  if (isDoublyEscaped(pathname)) return uncached(400, 'Bad request.');
  return next();
});

/** Refuses oversized request bodies (forms, actions, booking JSON) before anything parses them. */
const bodyLimit = defineMiddleware((context, next) => {
  const verdict = context.isPrerendered ? 'ok' : judgeBody(context.request);
  if (verdict === 'ok') return next();
  // A streamed body is never read: cancelling it closes the connection instead of leaving it open.
  if (verdict === 'length-required') void context.request.body?.cancel().catch(() => undefined);
  return refuseBody(context.request, verdict);
});

/** Resolves the tenant (host, `/<id>/` prefix, `?tenant=`), strips the prefix and maps `/page/N` before routing. */
const tenantResolution = defineMiddleware(async (context, next) => {
  lazyRequestId(context.locals);
  const match = tenantOfRequest(
    context.url,
    context.request.headers,
    context.locals.visitor.origin,
  );
  installTenantLocals(context.locals, match);
  noteRequest(match?.tenant.id, context.routePattern);
  if (!match) {
    // Never fall back to a default tenant: an unknown site is a 404.
    return context.url.pathname === '/404' ? next() : next(new URL('/404', context.url));
  }
  const clean = cleanAddress(context.request.method, context.request.url, match.pathname);
  if (clean) return clean;
  const paged = pagedRoute(match.pathname, context.url.searchParams);
  if (paged && 'redirect' in paged)
    return context.redirect(context.locals.href(paged.redirect), 301);
  if (paged) return next(new URL(paged.rewrite, context.url));
  if (match.via === 'path') {
    const target = new URL(match.pathname + context.url.search, context.url);
    return next(target);
  }
  return next();
});

/** `locals.requestId`, made the first time something reads it (an error's log line, most often none). */
function lazyRequestId(locals: App.Locals): void {
  let id: string | undefined;
  Object.defineProperty(locals, 'requestId', {
    configurable: true,
    enumerable: true,
    get: () => (id ??= crypto.randomUUID()),
    set: (value: string) => {
      id = value;
    },
  });
}

/**
 * A shareable page asked with query parameters it does not read: a redirect to the clean address
 * (never stored), so no cache holds one copy per made-up query string (src/lib/request/clean-url.ts).
 */
function cleanAddress(method: string, requestUrl: string, pathname: string): Response | null {
  // Without a query there is nothing to clean (most requests): no URL parsed, no route looked up.
  if ((method !== 'GET' && method !== 'HEAD') || !requestUrl.includes('?')) return null;
  const url = new URL(requestUrl);
  // A form's landing (`?posted=`): private, or a redirect to the page without it (`formPosts`).
  if (url.searchParams.has(SENT_PARAM)) return null;
  const allowed = shareableParams(pathname);
  const location = allowed && cleanRedirect(url, allowed);
  if (!location) return null;
  return uncachedRedirect(301, location);
}

/** A write on a host that is not the tenant's own is refused before anything runs (./lib/request/host-guard.ts). */
const tenantHostWrites = defineMiddleware((context, next) => {
  const host = foreignWriteHost(context.request.method, context.locals.tenantMatchOrNull);
  return host ? foreignWriteRefusal(context.request, host) : next();
});

/** Logs unexpected errors with tenant and path; Astro then renders the branded 500 page. */
const errorLogging = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    logError(
      'request.failed',
      {
        tenant: context.locals.tenantMatchOrNull?.tenant.id,
        path: context.url.pathname,
        requestId: context.locals.requestId,
      },
      error,
    );
    throw error;
  }
});

/** Headers every response gets. */
const securityHeaders = defineMiddleware(async (context, next) => {
  const response = await next();
  response.headers.set('X-Content-Type-Options', 'nosniff');
  trimPolicy(response.headers);
  // A private page (the booking's manage page and its .ics) sets `strict-origin` itself: kept.
  if (!response.headers.has('Referrer-Policy')) {
    response.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  }
  if (!context.url.pathname.startsWith('/embed/')) {
    response.headers.set('X-Frame-Options', 'DENY');
  }
  // Behind a trusted proxy the tenant can come from X-Forwarded-Host, so shared caches must key on it.
  if (TRUST_PROXY) response.headers.append('Vary', 'X-Forwarded-Host');
  return response;
});

export const onRequest = sequence(
  compressResponses,
  urlShape,
  // Before the origin check: a refused body closes the connection instead of being read.
  bodyLimit,
  visitor,
  originCheck,
  operatorEndpoints,
  tenantResolution,
  // After the purge endpoint: a purge carries its own secret, wherever it is sent.
  purgeEndpoint,
  tenantHostWrites,
  upstreamVisitor,
  errorLogging,
  securityHeaders,
  // Every form: POST → 303 → GET, the action's result kept in the session (src/lib/forms/).
  formPosts,
);
