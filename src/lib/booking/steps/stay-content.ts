import type { AstroGlobal } from 'astro';
import { bookingTenant } from '../../tenants/booking.ts';
import { BookingFailure } from '../domain/failures.ts';
import { bookingServiceFor } from '../../services/clients.ts';
import type { BookingContact, PropertySummary } from '../domain/types.ts';

/** What the booking pages show: the widget, or "not available online" with whom to contact. */
export type StayContent =
  | { kind: 'widget'; properties: PropertySummary[] }
  | { kind: 'not-online'; contact: BookingContact | undefined };

/** Turns the lodging API's unusable answers into the "not available online" content. */
export async function stayContent(load: () => Promise<PropertySummary[]>): Promise<StayContent> {
  try {
    return { kind: 'widget', properties: await load() };
  } catch (error) {
    if (error instanceof BookingFailure && error.error.code === 'not_online') {
      return { kind: 'not-online', contact: error.error.contact };
    }
    throw error;
  }
}

/** The on-site pages' loader: the tenant's properties, or null when booking is off here. */
export async function loadStay(Astro: Pick<AstroGlobal, 'locals'>): Promise<StayContent | null> {
  const tenant = bookingTenant(Astro.locals);
  if (!tenant) return null;
  return stayContent(() => bookingServiceFor(tenant).properties());
}
