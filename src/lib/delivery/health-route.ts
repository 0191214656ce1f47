import type { APIRoute } from 'astro';
import { schema } from 'virtual:astro:env/internal';
import { settingsProblems } from '../settings/validate.ts';
import { getTenants } from '../tenants/registry.ts';
import { checkHealth, healthResponse } from './health.ts';

// Never imports `astro:env/server` (directly or not): that module throws on load when a setting is
// invalid, and this route must still answer then. Settings are read like the adapter does.
export const prerender = false;

/** `/_health` for load balancers (any method): settings, config and shared store, no tenant. */
export const ALL: APIRoute = async () =>
  healthResponse(
    await checkHealth({
      settings: () => settingsProblems(schema, process.env),
      readConfig: getTenants,
      redisUrl: process.env['REDIS_URL'] || undefined,
    }),
  );
