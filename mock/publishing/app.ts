import type { Hono, Next } from 'hono';
import { bearer, clientIp, sentToken, unauthenticated } from '../lib/http.ts';
import { throttle } from '../lib/ratelimit.ts';
import { countAndFault, serviceApp } from '../lib/service-app.ts';
import { countTenant, routeKey } from '../lib/stats.ts';
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
  const app = serviceApp<PubEnv>('publishing');
  mediaRoutes(app, state);

  const api = app.basePath(API_BASE);
  // Calls per tenant (with a list's per_page), counted before any fault: the watcher's budget is read here.
  api.use('*', async (c: PubContext, next: Next) => {
    const route = routeKey(c, API_BASE);
    const perPage = c.req.query('per_page');
    countTenant(state.tenantStats, tenantName(c), perPage ? `${route}?per_page=${perPage}` : route);
    return next();
  });
  api.use('*', countAndFault(state, 'publishing', API_BASE, tenantName));
  api.use('*', async (c: PubContext, next: Next) => {
    const site = state.publishing.sites.get(tenantName(c));
    const token = sentToken(c, state.publishing.tokens);
    const { limits } = state;
    // A token of this tenant has its own budget; anything else counts against the caller's IP.
    const [key, perMinute] =
      token !== undefined && token.tenant === site?.slug
        ? [`pub:token:${token.token}`, limits.tokenPerMinute]
        : [`pub:ip:${clientIp(c)}`, limits.publicPerMinute];
    return throttle(c, () => authenticate(c, next), state.limiter, key, perMinute, limits);
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

  for (const routes of [authRoutes, postRoutes, taxonomyRoutes, catalogRoutes, commentRoutes]) {
    routes(api, state);
  }
  return app;
}
