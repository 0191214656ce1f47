import type { Tenant } from './schema.ts';

/** A tenant that offers booking: its lodging section is then always present. */
export type BookingTenant = Tenant & { lodging: NonNullable<Tenant['lodging']> };

/** The one answer to "does this tenant take bookings?" (the schema ties `features.booking` to `lodging`). */
export function offersBooking(tenant: Tenant | null | undefined): tenant is BookingTenant {
  return tenant?.features.booking === true && tenant.lodging !== undefined;
}

/**
 * The request's tenant narrowed to one that takes bookings, or `null` when booking is off here
 * (or no tenant was resolved): the page answers 404, an endpoint its JSON 404.
 */
export function bookingTenant(locals: Pick<App.Locals, 'tenantMatchOrNull'>): BookingTenant | null {
  const tenant = locals.tenantMatchOrNull?.tenant;
  return offersBooking(tenant) ? tenant : null;
}
