import { settings } from '../settings/settings.ts';
import { publishingBudgetKey } from '../site/clients.ts';
import { isStaticBuild } from '../static/mode.ts';
import { getTenants } from '../tenants/registry.ts';
import { onPageStored } from '../delivery/route-cache.ts';
import { listenForInvalidations } from './bus.ts';
import { edgeAddressOf, recordEdgeAddress } from './edge-addresses.ts';
import { watchTenant } from './watcher.ts';

let started = false;

/**
 * Starts listening for invalidations and one change watcher per tenant, once per process: when the
 * built server starts (./at-start.ts) or, under `astro dev`, when the middleware loads. Off with `WATCH_CHANGES=false` and in
 * static builds (nothing to invalidate there).
 */
export function startFreshness(): void {
  if (started) return;
  started = true;
  const { REDIS_URL, WATCH_CHANGES, EDGE_PURGE_URL, TRUST_PROXY } = settings();
  if (isStaticBuild()) return;
  void listenForInvalidations(REDIS_URL);
  // Behind an edge that purges by address: note every address it may hold (./edge-addresses.ts).
  if (EDGE_PURGE_URL) {
    onPageStored((page) =>
      recordEdgeAddress(page.tenant, edgeAddressOf(page, TRUST_PROXY), REDIS_URL),
    );
  }
  if (!WATCH_CHANGES) return;
  const tenants = getTenants();
  const buckets = new Map<string, number>();
  for (const tenant of tenants) {
    const { key } = publishingBudgetKey(tenant);
    buckets.set(key, (buckets.get(key) ?? 0) + 1);
  }
  for (const tenant of tenants) {
    watchTenant({
      tenant,
      tenantsSharing: buckets.get(publishingBudgetKey(tenant).key) ?? 1,
      redisUrl: REDIS_URL,
      edgePurgeUrl: EDGE_PURGE_URL,
    });
  }
}
