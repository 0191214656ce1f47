import type { AstroGlobal } from 'astro';
import { bookingServiceFor } from './service.ts';
import type { PropertySummary } from './types.ts';

/** The on-site pages' loader: the tenant's properties, or null when booking is off here. */
export async function loadStay(
  Astro: Pick<AstroGlobal, 'locals'>,
): Promise<PropertySummary[] | null> {
  const tenant = Astro.locals.tenant;
  if (!tenant.features.booking || !tenant.lodging) return null;
  return bookingServiceFor(tenant).properties();
}
