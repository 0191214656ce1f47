import { errorMessage } from '../../content/records.ts';
import { randomBytes } from 'node:crypto';
import { classify } from '../../failures/classify.ts';
import { lodgingClient } from '../../lodging/client.ts';
import { publishingClient } from '../../publishing/client.ts';
import type { SecretKey } from '../../secrets/schema.ts';
import type { Tenant } from '../../tenants/schema.ts';
import type { ServiceProfile } from '../../upstream/profile.ts';
import { createUpstream } from '../../upstream/runtime.ts';
import { CATALOGUES, resolveProfile } from '../schema.ts';
import type { ProfileService, ProfileTexts } from '../schema.ts';

/**
 * `npm run doctor -- <tenant> --writes`, only on request, through the site's own clients and the
 * tenant's profile. Publishing: the subscriber's account journey (register a throwaway account, sign
 * in, read it back, sign out; the account stays on the API). Comments are never written (they would
 * show on the site). A tenant that books: availability, a test guest (it stays: the contract's
 * guests have no cancel) and a one-night test stay far ahead, cancelled at once.
 */

interface WriteReport {
  service: ProfileService;
  operation: string;
  method: string;
  path: string;
  ok: boolean;
  /** What the site read (never the token), or why it could not. */
  detail: string;
}

interface WriteCheckOptions {
  tenant: Tenant;
  profiles: ProfileTexts;
  /** Lodging: the tenant's secrets. */
  secrets?: Partial<Record<SecretKey, string>>;
}

/** Steps run in order, each reported with its operation's method and path as the profile sends it. */
function journey(service: ProfileService, profile: ServiceProfile | undefined) {
  const reports: WriteReport[] = [];
  const step = async <T>(
    operation: string,
    run: () => Promise<T>,
    describe: (value: T) => string,
  ): Promise<T | undefined> => {
    const op = profile?.operations[operation];
    const declared = CATALOGUES[service][operation];
    const at = {
      service,
      operation,
      method: op?.method ?? declared?.method ?? 'GET',
      path: op?.path ?? declared?.path ?? '?',
    };
    try {
      const value = await run();
      reports.push({ ...at, ok: true, detail: describe(value) });
      return value;
    } catch (error) {
      const message = errorMessage(error);
      const detail = message.length > 160 ? `${message.slice(0, 157)}…` : message;
      reports.push({ ...at, ok: false, detail: `${classify(error).kind}: ${detail}` });
      return undefined;
    }
  };
  return { reports, step };
}

export async function checkWrites(options: WriteCheckOptions): Promise<WriteReport[]> {
  const { tenant } = options;
  const profile = resolveProfile('publishing', tenant.publishing.profile, options.profiles);
  const anonymous = publishingClient({
    tenantId: tenant.id,
    baseUrl: tenant.publishing.baseUrl,
    upstream: createUpstream(),
    profile,
  });
  const email = `masthead-doctor-${Date.now()}@example.com`;
  const password = randomBytes(18).toString('base64url');
  const { reports, step } = journey('publishing', profile);
  const registered = await step(
    'auth.register',
    () => anonymous.register({ name: 'Masthead Doctor', email, password }),
    () => `account ${email} made, token read`,
  );
  if (!registered) return reports;
  const signedIn = await step(
    'auth.login',
    () => anonymous.login(email, password),
    () => 'signed in with it, token read',
  );
  if (!signedIn) return reports;
  const user = anonymous.withToken(signedIn.token);
  await step(
    'auth.me',
    () => user.me({ fresh: true }),
    (me) => `id ${String(me.id)}, name ${me.name}`,
  );
  await step(
    'auth.logout',
    () => user.logout(),
    () => 'signed out',
  );
  return reports;
}

/** The test stay: one night, eleven months ahead (the first of the tenant's properties). */
function testStay(): { checkIn: string; checkOut: string } {
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  return { checkIn: day(330), checkOut: day(331) };
}

/** What the doctor says before it writes to the lodging API. */
export function lodgingWriteNotice(tenant: Tenant): string {
  const { checkIn, checkOut } = testStay();
  const property = tenant.lodging?.propertyIds[0] ?? '?';
  return `Lodging writes (--writes): booking a test stay at property ${property}, ${checkIn} to ${checkOut}, for a test guest "Masthead Doctor", and cancelling it at once (the test guest stays on the API).`;
}

export async function checkLodgingWrites(options: WriteCheckOptions): Promise<WriteReport[]> {
  const { tenant, secrets = {} } = options;
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
  const { reports, step } = journey('lodging', profile);
  const property = lodging.propertyIds[0] ?? '';
  const { checkIn, checkOut } = testStay();
  const offers = await step(
    'properties.availability',
    () => client.getAvailability(property, { check_in: checkIn, check_out: checkOut, guests: 1 }),
    (a) => `${a.room_types.filter((r) => (r.available_rooms ?? 0) > 0).length} room type(s) free`,
  );
  const room = offers?.room_types.find((r) => (r.available_rooms ?? 0) > 0);
  if (!room) return reports;
  const email = `masthead-doctor-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const guest = await step(
    'guests.create',
    () => client.createGuest({ first_name: 'Masthead', last_name: 'Doctor', email }),
    (g) => `test guest ${email} made, id ${String(g.id)}`,
  );
  if (!guest) return reports;
  const booking = await step(
    'bookings.create',
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
    'bookings.cancel',
    () => client.cancelBooking(String(booking.id)),
    (b) => `cancelled ${booking.reference}${b ? `, status ${String(b.status)}` : ''}`,
  );
  return reports;
}

/** The write checks as terminal lines, under `heading` when given. */
export function writeLines(reports: readonly WriteReport[], heading?: string): string[] {
  return [
    ...(heading ? ['', heading] : []),
    ...reports.map(
      (r) => `${r.ok ? '✓' : '✗'} ${r.service} ${r.operation}: ${r.method} ${r.path} · ${r.detail}`,
    ),
  ];
}
