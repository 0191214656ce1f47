import type { AstroGlobal } from 'astro';
import { bookingTenant } from '../tenants/booking.ts';
import { bookingServiceFor } from './site-service.ts';
import type { PropertySummary } from './types.ts';

/** The on-site pages' loader: the tenant's properties, or null when booking is off here. */
export async function loadStay(
  Astro: Pick<AstroGlobal, 'locals'>,
): Promise<PropertySummary[] | null> {
  const tenant = bookingTenant(Astro.locals);
  if (!tenant) return null;
  return bookingServiceFor(tenant).properties();
}
