import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { dropRoutes, routeTagsAt } from '../delivery/route-cache.ts';
import { forgetTenantPosts } from '../publishing/known-posts.ts';
import { siteUpstream } from '../services/clients.ts';
import type { TenantsChange } from '../tenants/loader.ts';
import { onTenantsChange, tenantRegistry } from '../tenants/registry.ts';
import { hostMatches } from '../tenants/resolution.ts';
import type { Tenant } from '../tenants/schema.ts';
import {
  announceTenantsReload,
  applyLocally,
  onTenantsAnnounced,
  purgeEdgeSoon,
  purgeIsOurs,
} from './bus.ts';
import { purgeEdge } from './edge.ts';
import type { Invalidation } from './invalidation.ts';

/**
 * What a reload of the tenants file changes here: a removed tenant's pages and data leave every
 * cache, a changed tenant's pages (and its data when its upstream changed) are rendered again, and
 * the edge drops its copies. With `REDIS_URL` one reload reaches every server (./bus.ts).
 */

/** A render that began before the reload may store its page after the drop: dropped once more. */
const AGAIN_AFTER_MS = 5000;

const sameUpstream = (before: Tenant, after: Tenant) =>
  isDeepStrictEqual(before.publishing, after.publishing) &&
  isDeepStrictEqual(before.lodging, after.lodging);

/**
 * Deletes the tenant's pages here (no copy of the old settings is kept for a failed render), marks
 * its data stale and forgets the posts its lists showed when `data`, and given `edge` (what the
 * tenant became, null when removed) a moment later drops its pages at the edge: every server
 * reloads the same change, and those sharing Redis purge it once (they share the book: ./edge.ts).
 */
async function dropTenant(tenant: Tenant, data: boolean, edge?: Tenant | null): Promise<void> {
  const invalidation: Invalidation = { tenant: tenant.id, everything: true, at: Date.now() };
  const drop = () => {
    dropRoutes([tenant.id]);
    if (data) forgetTenantPosts(siteUpstream(), tenant.id);
  };
  if (data) await applyLocally(invalidation);
  drop();
  const droppedAt = Date.now();
  setTimeout(drop, AGAIN_AFTER_MS).unref();
  if (edge === undefined) return;
  const change = createHash('sha256')
    .update(JSON.stringify([tenant, edge]))
    .digest('hex');
  purgeEdgeSoon(async () =>
    (await purgeIsOurs(change, droppedAt)) ? purgeEdge(tenant, invalidation) : 0,
  );
}

/**
 * Tenants whose pages this server may hold for an address `hosts` (given by the reload, `*.`
 * wildcards included) now take: their wildcard host took it, or their `/<id>/` or
 * `?tenant=` pages were answered on it.
 */
function coveringTenants(others: readonly Tenant[], hosts: readonly string[]): Tenant[] {
  const heldThere = routeTagsAt(hosts);
  return others.filter(
    (tenant) =>
      heldThere.has(tenant.id) ||
      tenant.hosts.some(
        (pattern) => pattern.startsWith('*.') && hosts.some((host) => hostMatches(pattern, host)),
      ),
  );
}

/** What this server does after each reload. */
export function applyTenantsChange(change: TenantsChange): Promise<void[]> {
  const claiming = [...change.added, ...change.changed.map(({ after }) => after)];
  // The hosts this reload gave a tenant: an added one's, and those a changed one did not name.
  const hosts = [
    ...change.added.flatMap((tenant) => tenant.hosts),
    ...change.changed.flatMap(({ before, after }) =>
      after.hosts.filter((host) => !before.hosts.includes(host)),
    ),
  ];
  const others = change.tenants.filter((tenant) => !claiming.includes(tenant));
  const drops = [
    ...change.removed.map((tenant) => dropTenant(tenant, true, null)),
    ...change.changed.map(({ before, after }) =>
      dropTenant(before, !sameUpstream(before, after), after),
    ),
    ...coveringTenants(others, hosts).map((tenant) => dropTenant(tenant, false)),
  ];
  return Promise.all(drops);
}

/** Follows every reload, and tells the other servers of one that was ours (./start.ts: once). */
export function followTenantReloads(): void {
  onTenantsAnnounced((heard) => {
    const registry = tenantRegistry();
    // Read at (re)subscription, the file may hold a change made while no one could hear this
    // server (it was starting, Redis was away): its own news, announced like a watch's.
    const reloaded = registry.reload(heard === 'announced' ? 'bus' : 'subscribed');
    // A rolling deploy may replace this server's copy of the file after the announcement.
    if (reloaded.status !== 'changed' && heard === 'announced') registry.awaitNewer();
  });
  onTenantsChange((change) => {
    void applyTenantsChange(change);
    // Another server's announcement made this one: saying it again would echo between servers.
    if (change.reason !== 'bus') void announceTenantsReload();
  });
}
