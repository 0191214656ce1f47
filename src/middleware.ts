import { defineMiddleware, sequence } from 'astro:middleware';
import { MASTHEAD_TENANT, STATUS_TOKEN, TRUST_PROXY } from 'astro:env/server';
import { getTenants } from './lib/tenants/registry.ts';
import { resolveTenant } from './lib/tenants/resolution.ts';
import { installTenantLocals } from './lib/tenants/locals.ts';
import { logError } from './lib/log.ts';
import { statusResponse } from './lib/status-access.ts';
import { compressResponses, healthEndpoint } from './lib/delivery/middleware.ts';
import { pagedRoute } from './lib/reading/paged-routes.ts';

/** `/_status`: upstream counters for operators, for every tenant at once (local or token-protected). */
const statusEndpoint = defineMiddleware((context, next) => {
  if (context.url.pathname !== '/_status') return next();
  let clientAddress: string | undefined;
  try {
    clientAddress = context.clientAddress;
  } catch {
    clientAddress = undefined;
  }
  return statusResponse({
    clientAddress,
    forwardedFor: context.request.headers.get('x-forwarded-for'),
    authorization: context.request.headers.get('authorization'),
    statusToken: STATUS_TOKEN,
  });
});

/** Resolves the tenant (host, `/<id>/` prefix, `?tenant=`), strips the prefix and maps `/page/N` before routing. */
const tenantResolution = defineMiddleware(async (context, next) => {
  context.locals.requestId = crypto.randomUUID();
  const match = resolveTenant(
    {
      url: context.url,
      forwardedHost: context.request.headers.get('x-forwarded-host'),
      trustProxy: TRUST_PROXY,
      forcedTenantId: MASTHEAD_TENANT,
    },
    getTenants(),
  );
  installTenantLocals(context.locals, match);
  if (!match) {
    // Never fall back to a default tenant: an unknown site is a 404.
    return context.url.pathname === '/404' ? next() : next(new URL('/404', context.url));
  }
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

/** Logs unexpected errors with tenant and path; Astro then renders the branded 500 page. */
const errorLogging = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    logError(
      'request.failed',
      {
        tenant: context.locals.site?.tenant.id,
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
  response.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (!context.url.pathname.startsWith('/embed/')) {
    response.headers.set('X-Frame-Options', 'DENY');
  }
  // Behind a trusted proxy the tenant can come from X-Forwarded-Host, so shared caches must key on it.
  if (TRUST_PROXY) response.headers.append('Vary', 'X-Forwarded-Host');
  return response;
});

export const onRequest = sequence(
  compressResponses,
  healthEndpoint,
  statusEndpoint,
  tenantResolution,
  errorLogging,
  securityHeaders,
);
