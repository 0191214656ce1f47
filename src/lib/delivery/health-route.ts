import type { APIRoute } from 'astro';
import { environmentProblems, readSettings } from '../settings/settings.ts';
import { tenantSecrets } from '../secrets/site.ts';
import { lodgingCredentials } from '../secrets/tenant.ts';
import { getTenants } from '../tenants/registry.ts';
import { checkHealth, healthResponse } from './health.ts';

// Never reads `settings()` (directly or not): it throws when a setting is invalid, and this route
// must still answer then, naming it.
export const prerender = false;

/** `/_health` for load balancers (any method): settings, config and shared store, no tenant. */
export const ALL: APIRoute = async () =>
  healthResponse(
    await checkHealth({
      settings: environmentProblems,
      readConfig: getTenants,
      credentials: (tenant) => lodgingCredentials(tenantSecrets(tenant)),
      redisUrl: readSettings(['REDIS_URL']).REDIS_URL,
    }),
  );
