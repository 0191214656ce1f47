import type { CacheProvider } from 'astro';
import { logger } from '../log/log.ts';
import { currentRequest, runInRequest, type RequestRecord } from '../log/request-context.ts';
import { tenantOfRequest } from '../request/public-origin.ts';
import { safeDecode } from '../tenants/resolution.ts';
import { observeResponse } from './prometheus.ts';

/**
 * One JSON log line and the HTTP metrics of every request Astro routes. Astro runs the route
 * cache around the middleware, so a cache hit never reaches the middleware: this wraps the route
 * cache provider (src/lib/delivery/route-cache.ts) to see hits, misses and renders alike.
 */

/** Query parameters whose values are logged; any other value is left out (tokens, e-mails…). */
const LOGGED_PARAMS = new Set(['page', 'sort', 'tenant', 'zoom', '_action']);

/** A path segment that names a secret in the segment after it, once decoded and lower-cased. */
const TOKEN_BEFORE = new Set(['manage']);

/** `/stay/manage/<token>/…` → `/stay/manage/[token]/…`, however the path spells `manage`. */
function withoutTokens(pathname: string): string {
  const segments = pathname.split('/');
  return segments
    .map((segment, at) =>
      // A segment with a broken escape is not `manage`, however it is spelled.
      segment !== '' && TOKEN_BEFORE.has(safeDecode(segments[at - 1] ?? '')?.toLowerCase() ?? '')
        ? '[token]'
        : segment,
    )
    .join('/');
}

/** The path as logged: no secret path segments (a booking's manage token), no query values but harmless ones. */
export function loggedPath(url: URL): string {
  const { pathname } = url;
  // Most paths name no secret: only one with `manage` in it, or escapes that could spell it, is split.
  const path = /manage|%/i.test(pathname) ? withoutTokens(pathname) : pathname;
  if (!url.search) return path;
  const params = [...url.searchParams.keys()].map((name) =>
    LOGGED_PARAMS.has(name) ? `${name}=${url.searchParams.get(name) ?? ''}` : `${name}=…`,
  );
  return params.length ? `${path}?${params.join('&')}` : path;
}

/** Called by the middleware once the tenant is known (a page that renders). */
export function noteRequest(tenant: string | undefined, route: string): void {
  const record = currentRequest();
  if (!record) return;
  record.tenant = tenant;
  record.route = route;
}

/** The request's metrics and its log line. */
export function logResponse(input: {
  url: URL;
  method: string;
  tenant: string;
  route: string | undefined;
  status: number;
  cache: string;
  upstreamCalls: number;
  started: number;
}): void {
  const seconds = (performance.now() - input.started) / 1000;
  observeResponse(input, seconds);
  const { tenant, method, status, cache } = input;
  logger.info({
    event: 'request',
    tenant,
    method,
    path: loggedPath(input.url),
    status,
    durationMs: Math.round(seconds * 10_000) / 10,
    cache,
    upstreamCalls: input.upstreamCalls,
  });
}

/** The provider with every request measured and logged. */
export function observedProvider<P extends CacheProvider>(provider: P): P {
  const onRequest = provider.onRequest?.bind(provider);
  if (!onRequest) return provider;
  return Object.assign(provider, {
    onRequest(context: Parameters<typeof onRequest>[0], next: Parameters<typeof onRequest>[1]) {
      const record: RequestRecord = { upstreamCalls: 0 };
      const started = performance.now();
      const { request, url } = context;
      const done = (status: number, cache: string) =>
        logResponse({
          url,
          method: request.method,
          tenant: record.tenant ?? tenantOfRequest(url, request.headers)?.tenant.id ?? 'none',
          route: record.route,
          status,
          cache,
          upstreamCalls: record.upstreamCalls,
          started,
        });
      return runInRequest(record, async () => {
        try {
          const response = await onRequest(context, next);
          done(response.status, (response.headers.get('X-Astro-Cache') ?? 'none').toLowerCase());
          return response;
        } catch (error) {
          done(500, 'none');
          throw error;
        }
      });
    },
  });
}
