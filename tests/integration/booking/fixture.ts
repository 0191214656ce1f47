import { startMock } from '../../../mock/index.ts';
import { addDays, todayIn } from '../../../src/lib/booking/domain/dates.ts';
import type { BookingRequest } from '../../../src/lib/booking/domain/schema.ts';
import type { Mailer } from '../../../src/lib/booking/mail/mailer.ts';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import type { TenantInput } from '../../../src/lib/tenants/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo, freshUpstream } from '../harness.ts';

/** Booking suites against the contract mock in either dialect (in-process, free ports, no stubs). */

export type Dialect = 'default' | 'alt';
export type Mock = Awaited<ReturnType<typeof startMock>>;

export const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
export const STANDARD_DOUBLE = 'd8d28b5c-3ea5-5c0b-80f4-c1a0fa8af222';
const TOKEN = demo.lodging['harbour-hotels']!.fullToken;

export function startDialect(dialect: Dialect): Promise<Mock> {
  return startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    dialect,
    limits: { lodgingPerMinute: 0 },
  });
}

type LodgingInput = NonNullable<TenantInput['lodging']>;

export function serviceFor(
  baseUrl: string,
  options: { lodging?: Partial<LodgingInput>; redisUrl?: string; mailer?: Mailer } = {},
) {
  const { up, lines } = freshUpstream();
  const tenant = buildTenant({
    id: 'harbour-times',
    features: { booking: true },
    lodging: {
      baseUrl,
      tokenEnv: 'TEST_LODGING_TOKEN',
      propertyIds: [HARBOUR_VIEW],
      maxNights: 21,
      ...options.lodging,
    },
  });
  const service = bookingService(tenant, {
    credentials: () => ({ token: TOKEN }),
    upstream: up,
    redisUrl: options.redisUrl,
    mailer: options.mailer,
  });
  return { service, up, lines };
}

export const today = () => todayIn('Europe/London');
export const day = (n: number) => addDays(today(), n);

/** The first Thursday at least `n` days ahead: Thu–Sun covers a weekday and two weekend nights. */
export function thursdayFrom(n: number): string {
  let date = day(n);
  while (new Date(`${date}T00:00:00Z`).getUTCDay() !== 4) date = addDays(date, 1);
  return date;
}

let counter = 0;
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}.${Date.now().toString(36)}${counter}@example.com`;
}

export function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  counter += 1;
  return {
    idempotencyKey: `key${Date.now().toString(36)}${counter}0000000000`,
    propertyId: HARBOUR_VIEW,
    roomTypeId: STANDARD_DOUBLE,
    checkIn: day(200),
    checkOut: day(202),
    adults: 2,
    children: 0,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: uniqueEmail('ada'),
    phone: '+44 20 7946 0958',
    nationality: 'GB',
    notes: '',
    ...overrides,
  };
}

/** Bookings the mock holds for these nights and this e-mail (counted in the mock, not via the site). */
export function bookingsIn(mock: Mock, email: string, checkIn: string, checkOut: string) {
  const guests = mock.state.lodging.guests.filter(
    (g) => g.email.toLowerCase() === email.toLowerCase(),
  );
  const ids = new Set(guests.map((g) => g.id));
  return mock.state.lodging.bookings.filter(
    (b) => ids.has(b.guestId) && b.checkIn === checkIn && b.checkOut === checkOut,
  );
}

export async function control(mock: Mock, method: string, path: string, body?: unknown) {
  const res = await fetch(`${mock.controlUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status}`);
  return res.json() as Promise<unknown>;
}

/** Error-level JSON lines among `lines`. */
export function errorLines(lines: string[]): string[] {
  return lines.filter((line) => {
    try {
      return (JSON.parse(line) as { level?: string }).level === 'error';
    } catch {
      return false;
    }
  });
}
