import { randomBytes } from 'node:crypto';
import { lodgingClient } from '../../lodging/client.ts';
import type { SecretKey } from '../../secrets/schema.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { createUpstream } from '../../upstream/runtime.ts';
import { failure } from '../doctor-writes.ts';
import type { WriteReport } from '../doctor-writes.ts';
import { resolveProfile } from '../schema.ts';
import type { ProfileTexts } from '../schema.ts';

/**
 * `npm run doctor -- <tenant> --writes` on a tenant that books: the lodging write path as the site
 * takes it (its own lodging client and the tenant's profile) on a test stay far ahead: availability,
 * a test guest, a one-night booking, and its cancellation at once. Said before it starts; the test
 * guest stays on the API (the contract's guests have no cancel), the booking is cancelled.
 */

export interface LodgingWriteOptions {
  tenant: Tenant;
  profiles: ProfileTexts;
  secrets: Partial<Record<SecretKey, string>>;
  /** Today, for the test stay's dates. */
  now?: Date;
}

/** The test stay: one night, eleven months ahead (the first of the tenant's properties). */
function testStay(now = new Date()): { checkIn: string; checkOut: string } {
  const day = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  return { checkIn: day(330), checkOut: day(331) };
}

/** What the doctor says before it writes to the lodging API. */
export function lodgingWriteNotice(tenant: Tenant, now = new Date()): string {
  const { checkIn, checkOut } = testStay(now);
  const property = tenant.lodging?.propertyIds[0] ?? '?';
  return `Lodging writes (--writes): booking a test stay at property ${property}, ${checkIn} to ${checkOut}, for a test guest "Masthead Doctor", and cancelling it at once (the test guest stays on the API).`;
}

export async function checkLodgingWrites(options: LodgingWriteOptions): Promise<WriteReport[]> {
  const { tenant, secrets } = options;
  const lodging = tenant.lodging;
  if (!lodging) return [];
  const profile = resolveProfile('lodging', lodging.profile, options.profiles);
  const client = lodgingClient({
    accountKey: `doctor:${tenant.id}`,
    baseUrl: lodging.baseUrl,
    ...(secrets.lodgingToken
      ? { token: secrets.lodgingToken }
      : { email: secrets.lodgingEmail, password: secrets.lodgingPassword }),
    upstream: createUpstream(),
    profile,
  });
  const where = (operation: string, method: string, path: string) => {
    const op = profile?.operations[operation];
    return {
      service: 'lodging' as const,
      operation,
      method: op?.method ?? method,
      path: op?.path ?? path,
    };
  };
  const reports: WriteReport[] = [];
  const step = async <T>(
    at: ReturnType<typeof where>,
    run: () => Promise<T>,
    describe: (value: T) => string,
  ): Promise<T | undefined> => {
    try {
      const value = await run();
      reports.push({ ...at, ok: true, detail: describe(value) });
      return value;
    } catch (error) {
      reports.push({ ...at, ok: false, detail: failure(error) });
      return undefined;
    }
  };
  const property = lodging.propertyIds[0] ?? '';
  const { checkIn, checkOut } = testStay(options.now);
  const offers = await step(
    where('properties.availability', 'GET', '/properties/{propertyId}/availability'),
    () => client.getAvailability(property, { check_in: checkIn, check_out: checkOut, guests: 1 }),
    (a) => `${a.room_types.filter((r) => (r.available_rooms ?? 0) > 0).length} room type(s) free`,
  );
  const room = offers?.room_types.find((r) => (r.available_rooms ?? 0) > 0);
  if (!room) return reports;
  const email = `masthead-doctor-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const guest = await step(
    where('guests.create', 'POST', '/guests'),
    () => client.createGuest({ first_name: 'Masthead', last_name: 'Doctor', email }),
    (g) => `test guest ${email} made, id ${String(g.id)}`,
  );
  if (!guest) return reports;
  const booking = await step(
    where('bookings.create', 'POST', '/bookings'),
    () =>
      client.createBooking({
        property_id: property,
        room_type_id: String(room.room_type_id),
        guest_id: String(guest.id),
        check_in: checkIn,
        check_out: checkOut,
        adults: 1,
        children: 0,
        notes: 'Masthead doctor test stay: cancelled at once.',
      }),
    (b) => `booked ${b.reference}, ${b.check_in} to ${b.check_out}, status ${String(b.status)}`,
  );
  if (!booking) return reports;
  await step(
    where('bookings.cancel', 'DELETE', '/bookings/{id}'),
    () => client.cancelBooking(String(booking.id)),
    (b) => `cancelled ${booking.reference}${b ? `, status ${String(b.status)}` : ''}`,
  );
  return reports;
}
