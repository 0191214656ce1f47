import { Hono, type Context, type Env, type Next } from 'hono';
import type { Dialect } from './dialect.ts';
import { injectFaults, type Faults, type Service } from './faults.ts';
import { notFound, problem } from './http.ts';
import type { Rng } from './prng.ts';
import { count, countRateLimited, routeKey, type ServiceStats } from './stats.ts';

/** What of the mock's state every service reads on each request. */
type Shared = {
  dialect: Dialect;
  faultRng: Rng;
  faults: Record<Service, Faults>;
  stats: Record<Service, ServiceStats>;
};

/** A service's app with Laravel's bodies for an unknown route (404) and a thrown error (500). */
export function serviceApp<E extends Env>(service: Service): Hono<E> {
  const app = new Hono<E>();
  app.onError((err, c) => {
    console.error(`[mock ${service}]`, err);
    return problem(c, 500, 'Server Error');
  });
  app.notFound((c) => notFound(c));
  return app;
}

/**
 * A service's first middleware: counts the call, fixes the dialect, applies the set faults, and
 * counts a 429 answer (its own or the rate limit's after it) under `who` sent it.
 */
export const countAndFault =
  (state: Shared, service: Service, base: string, who: (c: Context) => string) =>
  async (c: Context<{ Variables: { dialect: Dialect } }>, next: Next) => {
    const route = routeKey(c, base);
    count(state.stats[service], route);
    c.set('dialect', state.dialect);
    const answer = await injectFaults(c, next, state.faults[service], state.faultRng, route);
    if ((answer instanceof Response ? answer : c.res).status === 429)
      countRateLimited(state.stats[service], who(c));
    return answer;
  };
