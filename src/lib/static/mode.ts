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

/** Paths a static copy writes as files of that name (`/rss.xml`); every other page as `<path>/index.html`. */
export const FILE_PATH = /\.(?:xml|txt|json|css|js|svg|html|webmanifest|avif|webp|jpg)$/i;

/**
 * A page's path as a static host serves its `<path>/index.html`: with a trailing slash, where most
 * hosts redirect the bare path. Files and `/` stay as they are.
 */
export const servedPath = (pathname: string): string =>
  pathname.endsWith('/') || FILE_PATH.test(pathname) ? pathname : `${pathname}/`;

/** A static copy's booking: the live server's one-tag embed per property, or `null` (page and link left out). */
export function staticBookingEmbed(tenant: Tenant): { src: string; propertyIds: string[] } | null {
  const live = tenant.static?.liveOrigin;
  if (!live || !tenant.features.booking || !tenant.lodging) return null;
  return {
    src: new URL('/embed/booking.js', live).toString(),
    propertyIds: tenant.lodging.propertyIds,
  };
}
