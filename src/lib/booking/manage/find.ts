import type { Booking } from '../../lodging/schema.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { ServiceCore } from '../service/core.ts';
import { MAX_BOOKING_PAGES } from '../service/create.ts';
import { findByEmail } from '../service/guests.ts';

/** The booking with this reference and e-mail on this tenant's properties, or null. */
export async function findStay(
  core: ServiceCore,
  emailTyped: string,
  reference: string,
): Promise<Booking | null> {
  const email = normalizeEmail(emailTyped);
  const wanted = reference.trim().toUpperCase();
  const api = core.lodgingApi();
  const guest = await findByEmail(api, email, email);
  const holder = await core.onlineRequests(api, '').catch(() => undefined);
  const records = [guest ? String(guest.id) : undefined, holder].filter(
    (id): id is string => id !== undefined,
  );
  for (const guestId of records) {
    for (let page = 1; page <= MAX_BOOKING_PAGES; page += 1) {
      const list = await api.listBookings(
        { guest_id: guestId, page, perPage: 50 },
        { fresh: true },
      );
      const found = list.items.find(
        (b) =>
          (b.reference ?? String(b.id)).toUpperCase() === wanted &&
          core.lodging.propertyIds.includes(String(b.property_id ?? '')) &&
          (guestId !== holder || normalizeEmail(b.notes ?? '').includes(`<${email}>`)),
      );
      if (found) return found;
      if (list.page.current >= list.page.last || list.items.length === 0) break;
    }
  }
  return null;
}
