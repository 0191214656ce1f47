import type { Tenant } from './tenants/schema.ts';
import { isStaticBuild, staticBookingEmbed } from './static/mode.ts';

export interface NavItem {
  label: string;
  path: string;
}

/** Main navigation: categories from the API first, then the sections the tenant has switched on. */
export function mainNavigation(
  tenant: Tenant,
  categories: readonly { name: string; slug: string }[] = [],
): NavItem[] {
  const items: NavItem[] = categories.slice(0, 6).map((category) => ({
    label: category.name,
    path: `/categories/${category.slug}`,
  }));
  if (tenant.features.epaper) items.push({ label: 'E-paper', path: '/epaper' });
  if (tenant.features.streams) items.push({ label: 'Live', path: '/streams' });
  // A static copy has no server for accounts, and books only through the live server's embed.
  const live = !isStaticBuild();
  if (tenant.features.booking && (live || staticBookingEmbed(tenant)))
    items.push({ label: 'Stay', path: '/stay' });
  items.push({ label: 'Search', path: '/search' });
  if (live) items.push({ label: 'Account', path: '/account' });
  return items;
}
