import type { Hono, Next } from 'hono';
import { clientIp, forbidden, sentToken, unauthenticated } from '../lib/http.ts';
import { throttle } from '../lib/ratelimit.ts';
import { countAndFault, serviceApp } from '../lib/service-app.ts';
import { routeKey } from '../lib/stats.ts';
import type { MockState } from '../state.ts';
import { authRoutes } from './auth.ts';
import { bookingRoutes } from './bookings.ts';
import { API_BASE, type LodgeContext, type LodgeEnv } from './context.ts';
import { guestRoutes } from './guests.ts';
import { propertyRoutes } from './properties.ts';

const PUBLIC = new Set(['POST /auth/login']);
// Any valid token may end its own session, read-only ones included.
const ANY_ABILITY = new Set(['POST /auth/logout']);

/** The lodging service: bearer tokens scoped `read` (GET only) or `*`, one account per token. */
export function createLodgingApp(state: MockState): Hono<LodgeEnv> {
  const app = serviceApp<LodgeEnv>('lodging');
  const api = app.basePath(API_BASE);
  api.use(
    '*',
    countAndFault(
      state,
      'lodging',
      API_BASE,
      (c) => sentToken(c, state.lodging.tokens)?.accountId ?? 'anonymous',
    ),
  );
  api.use('*', async (c: LodgeContext, next: Next) => {
    const token = sentToken(c, state.lodging.tokens);
    const key = token ? `lodging:token:${token.token}` : `lodging:ip:${clientIp(c)}`;
    return throttle(c, next, state.limiter, key, state.limits.lodgingPerMinute, state.limits);
  });
  api.use('*', async (c: LodgeContext, next: Next) => {
    const route = routeKey(c, API_BASE);
    // Unknown routes 404 before auth, as Laravel routes before its middleware.
    if (PUBLIC.has(route) || route.endsWith('(unmatched)')) return next();
    const token = sentToken(c, state.lodging.tokens);
    const user = token && state.lodging.users.find((u) => u.id === token.userId);
    if (!token || !user) return unauthenticated(c);
    const canWrite = token.abilities.includes('*');
    if (c.req.method !== 'GET' && !canWrite && !ANY_ABILITY.has(route)) return forbidden(c);
    c.set('token', token);
    c.set('user', user);
    return next();
  });

  for (const routes of [authRoutes, propertyRoutes, bookingRoutes, guestRoutes]) routes(api, state);
  return app;
}
