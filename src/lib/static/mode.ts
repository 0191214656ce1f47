import type { Tenant } from '../tenants/schema.ts';
import type { SettingName } from '../settings/schema.ts';
import { settings } from '../settings/settings.ts';

/** Set by `npm run build:static` on the server it renders from: the tenant's snapshot file. */
export const SNAPSHOT_ENV = 'MASTHEAD_STATIC_SNAPSHOT' satisfies SettingName;

/** The snapshot the static build renders from, or `undefined` on a normal server. */
export function snapshotPath(): string | undefined {
  return settings().MASTHEAD_STATIC_SNAPSHOT;
}

/** True while rendering pages for a static copy (no sessions, forms or live data on those pages). */
export const isStaticBuild = (): boolean => Boolean(snapshotPath());

/** A static copy's booking: the live server's one-tag embed per property, or `null` (page and link left out). */
export function staticBookingEmbed(tenant: Tenant): { src: string; propertyIds: string[] } | null {
  const live = tenant.static?.liveOrigin;
  if (!live || !tenant.features.booking || !tenant.lodging) return null;
  return {
    src: new URL('/embed/booking.js', live).toString(),
    propertyIds: tenant.lodging.propertyIds,
  };
}
