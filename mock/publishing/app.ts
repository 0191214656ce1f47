import { Hono } from 'hono';
import type { Next } from 'hono';
import { injectFaults } from '../lib/faults.ts';
import { bearer, clientIp, notFound, problem, unauthenticated } from '../lib/http.ts';
import { throttle } from '../lib/ratelimit.ts';
import { count, countTenant, routeKey } from '../lib/stats.ts';
import type { MockState } from '../state.ts';
import { authRoutes } from './auth.ts';
import { catalogRoutes } from './catalog.ts';
import { commentRoutes } from './comments.ts';
import { API_BASE, type PubContext, type PubEnv } from './context.ts';
import { mediaRoutes } from './media.ts';
import { postRoutes } from './posts.ts';
import { taxonomyRoutes } from './taxonomy.ts';

/** Tenant short name: `X-Tenant`, then `?tenant=`, then the first host label. */
function tenantName(c: PubContext): string {
  const header = c.req.header('x-tenant')?.trim();
  if (header) return header;
  const query = c.req.query('tenant')?.trim();
  if (query) return query;
  return (c.req.header('host') ?? '').split('.')[0] ?? '';
}

/** The publishing service: `/api/v1/*` plus media, player and stand-in pages. */
export function createPublishingApp(state: MockState): Hono<PubEnv> {
  const app = new Hono<PubEnv>();
  app.onError((err, c) => {
    console.error('[mock publishing]', err);
    return problem(c, 500, 'Server Error');
  });
  app.notFound((c) => notFound(c));
  mediaRoutes(app, state);

  const api = app.basePath(API_BASE);
  api.use('*', async (c: PubContext, next: Next) => {
    const route = routeKey(c, API_BASE);
    count(state.stats.publishing, route);
    const perPage = c.req.query('per_page');
    countTenant(state.tenantStats, tenantName(c), perPage ? `${route}?per_page=${perPage}` : route);
    c.set('dialect', state.dialect);
    return injectFaults(c, next, state.faults.publishing, state.faultRng, route);
  });
  api.use('*', async (c: PubContext, next: Next) => {
    const site = state.publishing.sites.get(tenantName(c));
    const raw = bearer(c);
    const token = raw === undefined ? undefined : state.publishing.tokens.get(raw);
    const valid = token !== undefined && token.tenant === site?.slug;
    const { limiter, limits } = state;
    return valid
      ? throttle(c, () => authenticate(c, next), limiter, `pub:token:${raw}`, limits.tokenPerMinute)
      : throttle(
          c,
          () => authenticate(c, next),
          limiter,
          `pub:ip:${clientIp(c)}`,
          limits.publicPerMinute,
        );
  });

  /** 404 for an unknown tenant; 401 for a sent-but-invalid token (Sanctum guard). */
  async function authenticate(c: PubContext, next: Next) {
    const site = state.publishing.sites.get(tenantName(c));
    if (!site) {
      c.res = c.json({ message: 'Tenant not found.' }, 404);
      return;
    }
    c.set('site', site);
    c.set('user', null);
    c.set('token', null);
    const raw = bearer(c);
    if (raw !== undefined) {
      const token = state.publishing.tokens.get(raw);
      const user =
        token?.tenant === site.slug ? site.users.find((u) => u.id === token.userId) : undefined;
      if (!token || !user) {
        c.res = unauthenticated(c);
        return;
      }
      c.set('user', user);
      c.set('token', token);
    }
    await next();
  }

  authRoutes(api, state);
  postRoutes(api, state);
  taxonomyRoutes(api, state);
  catalogRoutes(api, state);
  commentRoutes(api, state);
  return app;
}
