import { logWarn } from '../log/log.ts';
import { settings } from '../settings/settings.ts';
import { publishingBudgetKey } from '../services/clients.ts';
import { isStaticBuild } from '../static/mode.ts';
import { getTenants, onTenantsChange } from '../tenants/registry.ts';
import type { Tenant } from '../tenants/schema.ts';
import { onPageStored } from '../delivery/route-cache.ts';
import { listenForInvalidations } from './bus.ts';
import { edgeAddressOf, recordEdgeAddress } from './edge.ts';
import { followTenantReloads } from './tenants.ts';
import { watchEveryTenant } from './watch-all.ts';
import { watchTenant } from './watcher.ts';

let started = false;

/** How many tenants of the registry spend the tenant's publishing budget bucket (looked up each time). */
function tenantsSharing(tenant: Tenant): number {
  const { key } = publishingBudgetKey(tenant);
  return getTenants().filter((other) => publishingBudgetKey(other).key === key).length || 1;
}

/**
 * Starts listening for invalidations and one change watcher per tenant (./watch-all.ts follows the
 * reloads), once per process: when the built server starts (../services/startup-lines.ts) or, under `astro dev`,
 * when the middleware loads. Off with `WATCH_CHANGES=false` and in static builds.
 */
export function startFreshness(): void {
  if (started) return;
  started = true;
  const { REDIS_URL, WATCH_CHANGES, EDGE_PURGE_URL } = settings();
  if (isStaticBuild()) return;
  void listenForInvalidations();
  followTenantReloads();
  // Behind an edge that purges by address: note every address it may hold (./edge.ts),
  // in Redis so that a restart does not forget them (the rule of docs/deploy.md, one server too).
  if (EDGE_PURGE_URL) {
    const hint =
      'set REDIS_URL: a restart forgets what the edge keeps, purges miss it (docs/deploy.md)';
    if (!REDIS_URL) logWarn('freshness.edge.book_in_memory', { hint });
    onPageStored((page) => recordEdgeAddress(page.tenant, edgeAddressOf(page), REDIS_URL));
  }
  if (!WATCH_CHANGES) return;
  watchEveryTenant(getTenants(), onTenantsChange, (tenant) =>
    watchTenant({ tenant, tenantsSharing: () => tenantsSharing(tenant) }),
  );
}
