import type { TenantsChange } from '../tenants/loader.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Watcher } from './watcher.ts';

/**
 * One change watcher per tenant, following the reloads of the tenants file: an added tenant's
 * watcher starts, a changed one's starts again with its new settings, a removed one's stops.
 * Returns the watchers running now (by tenant id).
 */
export function watchEveryTenant(
  tenants: readonly Tenant[],
  onChange: (listener: (change: TenantsChange) => void) => unknown,
  watch: (tenant: Tenant) => Watcher,
): ReadonlyMap<string, Watcher> {
  const watchers = new Map<string, Watcher>();
  const start = (tenant: Tenant) => watchers.set(tenant.id, watch(tenant));
  const stop = (tenant: Tenant) => {
    watchers.get(tenant.id)?.stop();
    watchers.delete(tenant.id);
  };
  for (const tenant of tenants) start(tenant);
  onChange((change) => {
    for (const tenant of change.removed) stop(tenant);
    for (const { before, after } of change.changed) {
      stop(before);
      start(after);
    }
    for (const tenant of change.added) start(tenant);
  });
  return watchers;
}
