import { settings } from '../settings/settings.ts';
import { publishingBudgetKey } from '../site/clients.ts';
import { isStaticBuild } from '../static/mode.ts';
import { getTenants } from '../tenants/registry.ts';
import { listenForInvalidations } from './bus.ts';
import { watchTenant } from './watcher.ts';

let started = false;

/**
 * Starts listening for invalidations and one change watcher per tenant, once per process: when the
 * site's middleware loads (`npm start` loads it at start-up). Off with `WATCH_CHANGES=false` and in
 * static builds (nothing to invalidate there).
 */
export function startFreshness(): void {
  if (started) return;
  started = true;
  const { REDIS_URL, WATCH_CHANGES, EDGE_PURGE_URL } = settings();
  if (isStaticBuild()) return;
  void listenForInvalidations(REDIS_URL);
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
