import type { Booking } from '../../lodging/schema.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { ServiceCore } from '../service/core.ts';
import { listedBooking } from '../service/create.ts';
import { findByEmail, notedEmail } from '../service/guests.ts';
import { referenceOf } from '../service/lodging-shapes.ts';
import type { ManagedBooking } from './link.ts';

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
  const holder = await core.onlineRequests('').catch(() => undefined);
  for (const guestId of [guest ? String(guest.id) : undefined, holder]) {
    if (guestId === undefined) continue;
    const found = await listedBooking(
      api,
      { guest_id: guestId },
      (b) =>
        referenceOf(b).toUpperCase() === wanted &&
        core.lodging.propertyIds.includes(String(b.property_id ?? '')) &&
        (guestId !== holder || notedEmail(b.notes) === email),
    );
    if (found) return found;
  }
  return null;
}

/** The booking a manage link names, asked fresh. */
export function namedBooking(
  core: ServiceCore,
  named: ManagedBooking,
): Promise<Booking | undefined> {
  const day = named.checkIn;
  return listedBooking(
    core.lodgingApi(),
    { property_id: named.propertyId, check_in_from: day, check_in_to: day },
    (b) => referenceOf(b) === named.reference && String(b.property_id) === named.propertyId,
  );
}
