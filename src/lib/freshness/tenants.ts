import { isDeepStrictEqual } from 'node:util';
import { invalidateRoutes } from '../delivery/route-cache.ts';
import type { TenantsChange } from '../tenants/loader.ts';
import { onTenantsChange, tenantRegistry } from '../tenants/registry.ts';
import { hostMatches } from '../tenants/resolution.ts';
import type { Tenant } from '../tenants/schema.ts';
import { announceTenantsReload, onTenantsAnnounced } from './bus.ts';
import { purgeEdge } from './edge.ts';
import { applyLocally } from './invalidation.ts';
import type { Invalidation } from './invalidation.ts';

/**
 * What a reload of the tenants file changes on this server (src/lib/tenants/registry.ts): a removed
 * tenant's pages and data leave every cache (its hosts then answer "Site not found"), a changed
 * tenant's pages are rendered again (its data too when its upstream settings changed), and the edge
 * drops its copies. With `REDIS_URL` one reload reaches every server: the others read their own
 * file again (./bus.ts). Watchers follow in ./start.ts, clients in src/lib/services/clients.ts.
 */

/** A render that began before the reload may store its page after the drop: dropped once more. */
const AGAIN_AFTER_MS = 5000;
/** The other servers reload on the announcement before the edge is purged (as ./bus.ts does). */
const EDGE_AFTER_MS = 1000;

export interface FollowOptions {
  redisUrl: string | undefined;
  edgePurgeUrl: string | undefined;
}

const sameUpstream = (before: Tenant, after: Tenant) =>
  isDeepStrictEqual(before.publishing, after.publishing) &&
  isDeepStrictEqual(before.lodging, after.lodging);

/** Drops the tenant's pages here (and its data when `data`), and a moment later at the edge. */
async function dropTenant(tenant: Tenant, data: boolean, options: FollowOptions): Promise<void> {
  const invalidation: Invalidation = { tenant: tenant.id, everything: true, at: Date.now() };
  if (data) await applyLocally(invalidation);
  else await invalidateRoutes([tenant.id]);
  setTimeout(() => void invalidateRoutes([tenant.id]), AGAIN_AFTER_MS).unref();
  const { edgePurgeUrl, redisUrl } = options;
  if (edgePurgeUrl) {
    setTimeout(
      () => void purgeEdge(tenant, invalidation, edgePurgeUrl, redisUrl),
      EDGE_AFTER_MS,
    ).unref();
  }
}

/** Tenants whose wildcard host took an address an added tenant now names exactly. */
function coveringTenants(change: TenantsChange): Tenant[] {
  const hosts = change.added.flatMap((tenant) => tenant.hosts);
  return change.tenants.filter(
    (tenant) =>
      !change.added.includes(tenant) &&
      tenant.hosts.some(
        (pattern) => pattern.startsWith('*.') && hosts.some((host) => hostMatches(pattern, host)),
      ),
  );
}

/** What this server does after each reload. */
export function applyTenantsChange(change: TenantsChange, options: FollowOptions): Promise<void[]> {
  const drops = [
    ...change.removed.map((tenant) => dropTenant(tenant, true, options)),
    ...change.changed.map(({ before, after }) =>
      dropTenant(before, !sameUpstream(before, after), options),
    ),
    ...coveringTenants(change).map((tenant) => dropTenant(tenant, false, options)),
  ];
  return Promise.all(drops);
}

let following = false;

/** Once per process: follows every reload, and tells the other servers of one that was ours. */
export function followTenantReloads(options: FollowOptions): void {
  if (following) return;
  following = true;
  onTenantsAnnounced(() => tenantRegistry().reload('bus'));
  onTenantsChange((change) => {
    void applyTenantsChange(change, options);
    // Another server's announcement made this one: saying it again would echo between servers.
    if (change.reason !== 'bus') void announceTenantsReload(options.redisUrl);
  });
}
