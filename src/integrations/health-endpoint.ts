import type { APIRoute } from 'astro';
import { readSettings, settingsProblems } from '../lib/settings/settings.ts';
import { tenantSecrets } from '../lib/secrets/site.ts';
import { lodgingCredentials } from '../lib/secrets/tenant.ts';
import { getTenants } from '../lib/tenants/registry.ts';
import { checkHealth, healthResponse } from '../lib/delivery/health.ts';

// Never reads `settings()` (directly or not): it throws when a setting is invalid, and this route
// must still answer then, naming it.
export const prerender = false;

/**
 * `/_health` for load balancers (any method; injected by ./routes.ts, as Astro routes no `_`
 * file): settings, config and shared store (lib/delivery/health.ts), no tenant.
 */
export const ALL: APIRoute = async () =>
  healthResponse(
    await checkHealth({
      settings: () => settingsProblems(),
      readConfig: getTenants,
      credentials: (tenant) => lodgingCredentials(tenantSecrets(tenant)),
      redisUrl: readSettings(['REDIS_URL']).REDIS_URL,
    }),
  );
