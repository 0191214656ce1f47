import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import type { BookingRequest } from '../../../src/lib/booking/domain/schema.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { day } from './fixture.ts';
import { english } from '../../fixtures/english.ts';

// The booking service against the contract mock (in-process, free ports): no stubs.
let mock: Mock;
const PROPERTY = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const TOKEN = demo.lodging['harbour-hotels']!.fullToken;

const CONTACT = { phone: '+44 20 7946 0000', email: 'rooms@harbour-hotels.test' };

function tenantFor(baseUrl: string, contact?: typeof CONTACT) {
  return buildTenant({
    id: 'harbour-times',
    features: { booking: true },
    lodging: {
      baseUrl,
      tokenEnv: 'TEST_LODGING_TOKEN',
      propertyIds: [PROPERTY],
      maxNights: 21,
      ...(contact ? { contact } : {}),
    },
  });
}

function service(limits?: { lodgingPerMinute: number }, contact?: typeof CONTACT) {
  return bookingService(tenantFor(mock.lodgingUrl, contact), {
    credentials: () => ({ token: TOKEN }),
    upstream: createUpstream(limits ? { limits } : {}),
  });
}

async function stats(): Promise<Record<string, number>> {
  const body = (await (await fetch(`${mock.controlUrl}/stats`)).json()) as {
    lodging: { routes: Record<string, number> };
  };
  return body.lodging.routes;
}

function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    idempotencyKey: `key${Math.random().toString(36).slice(2)}0000000000`,
    propertyId: PROPERTY,
    roomTypeId: 'd8d28b5c-3ea5-5c0b-80f4-c1a0fa8af222',
    checkIn: day(300),
    checkOut: day(302),
    adults: 2,
    children: 0,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${Math.random().toString(36).slice(2)}@example.com`,
    phone: '+44 20 7946 0958',
    nationality: 'GB',
    notes: '',
    ...overrides,
  };
}

beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(async () => {
  await mock.close();
});

describe('booking service', () => {
  it('shares one upstream call among identical concurrent searches, and caches briefly', async () => {
    const s = service();
    const before = (await stats())['GET /properties/{id}/availability'] ?? 0;
    const query = {
      property: PROPERTY,
      checkIn: day(310),
      checkOut: day(312),
      adults: 2,
      children: 0,
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => s.availability(query)));
    await s.availability(query);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect((await stats())['GET /properties/{id}/availability']).toBe(before + 1);
    expect(results[0]!.rooms.some((r) => r.available)).toBe(true);
  });

  it('books once per idempotency key, and never hands that booking to another key', async () => {
    const s = service();
    const before = (await stats())['POST /bookings'] ?? 0;
    const input = request({ checkIn: day(320), checkOut: day(322) });
    const [a, b] = await Promise.all([s.book(input), s.book(input)]);
    expect(a.reference).toMatch(/^BK-/);
    expect(b.reference).toBe(a.reference);
    // Same guest, property and nights from another key (another tab) right after: turned away
    // before any upstream call, no second booking, and nothing of the first one disclosed.
    const other = await s
      .book({ ...input, idempotencyKey: 'anotherkey000000000000' })
      .catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 409, error: { code: 'same_stay' } });
    expect(other).not.toHaveProperty('error.retryAfter');
    expect(JSON.stringify(other)).not.toContain(a.reference);
    // It says where the confirmation is, promises no e-mail (none may have been sent), offers no
    // "try again", and tells the guest to ask the hotel only when there is a contact to show.
    const said = english((other as BookingFailure).error.message);
    expect(said).toContain('booked moments ago');
    expect(said).not.toMatch(/e-?mail(?! address)/i);
    expect(said).not.toMatch(/try again|contact/i);
    expect((await stats())['POST /bookings']).toBe(before + 1);
    expect((await stats())['POST /guests']).toBeGreaterThanOrEqual(1);
  });

  it('a second browser with the same stay (another name, same e-mail) books only when it chose another room', async () => {
    const s = service();
    const before = (await stats())['POST /bookings'] ?? 0;
    const input = request({ checkIn: day(328), checkOut: day(330) });
    const first = await s.book(input);
    const second = { ...input, firstName: 'Augusta', idempotencyKey: 'secondbrowser00000000000' };
    // Refused, and refused again with that key however often "Book" is pressed.
    for (let i = 0; i < 2; i += 1)
      await expect(s.book(second)).rejects.toMatchObject({ error: { code: 'same_stay' } });
    expect((await stats())['POST /bookings']).toBe(before + 1);
    // "Book another room for the same dates": a second booking, once for that key.
    const another = await s.book(second, { anotherRoom: true });
    expect(another.reference).not.toBe(first.reference);
    expect((await s.book(second, { anotherRoom: true })).reference).toBe(another.reference);
    expect((await stats())['POST /bookings']).toBe(before + 2);
  });

  it('names the tenant’s contact when it turns away the same stay booked moments ago', async () => {
    const s = service(undefined, CONTACT);
    const input = request({ checkIn: day(324), checkOut: day(326) });
    await s.book(input);
    const other = await s
      .book({ ...input, idempotencyKey: 'anotherkey111111111111' })
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(BookingFailure);
    const said = english((other as BookingFailure).error.message);
    expect(said).toContain('Contact the hotel: +44 20 7946 0000 · rooms@harbour-hotels.test.');
    expect(said).not.toMatch(/e-?mail(?! address)/i);
  });

  it('shows the booked room as gone on the next search of those nights', async () => {
    const s = service();
    const query = {
      property: PROPERTY,
      checkIn: day(330),
      checkOut: day(332),
      adults: 2,
      children: 0,
    };
    const double = (r: Awaited<ReturnType<typeof s.availability>>) =>
      r.rooms.find((room) => room.name === 'Standard Double')!.availableRooms;
    const before = double(await s.availability(query));
    await s.book(request({ checkIn: day(330), checkOut: day(332) }));
    expect(double(await s.availability(query))).toBe(before - 1);
  });

  it('a room the lodging API refuses as taken (booked at the desk meanwhile) is shown taken on the next search', async () => {
    const s = service();
    const SUITE = '7a59e438-e83e-5135-aaac-e0df7c6f00a8';
    const stay = { checkIn: day(340), checkOut: day(342) };
    const query = { property: PROPERTY, ...stay, adults: 2, children: 0 };
    const suite = async () =>
      (await s.availability(query)).rooms.find((room) => room.roomTypeId === SUITE)!;
    const free = (await suite()).availableRooms;
    expect(free).toBeGreaterThan(0);
    // Another channel takes every suite: the site's cached search does not know.
    const lodging = async (path: string, body: unknown) => {
      const answer = await fetch(`${mock.lodgingUrl}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      return ((await answer.json()) as { data: { id: string } }).data;
    };
    const desk = await lodging('/guests', {
      first_name: 'Walk',
      last_name: 'In',
      email: `desk.${Math.random().toString(36).slice(2)}@example.com`,
    });
    for (let n = 0; n < free; n += 1)
      await lodging('/bookings', {
        property_id: PROPERTY,
        room_type_id: SUITE,
        guest_id: desk.id,
        check_in: stay.checkIn,
        check_out: stay.checkOut,
        adults: 2,
        children: 0,
      });
    expect((await suite()).available).toBe(true);

    const refused = await s.book(request({ ...stay, roomTypeId: SUITE })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BookingFailure);
    expect((refused as BookingFailure).error.code).toBe('validation');
    expect((await suite()).available).toBe(false);
  });

  it('refuses a reused key with other details', async () => {
    const s = service();
    const input = request({ checkIn: day(340), checkOut: day(341) });
    await s.book(input);
    await expect(s.book({ ...input, notes: 'changed' })).rejects.toMatchObject({
      status: 409,
      error: { code: 'conflict' },
    });
  });

  it('validates with the tenant rules before calling upstream', async () => {
    const s = service();
    const error = await s
      .book(request({ checkIn: day(-1), checkOut: day(40), email: 'x', nationality: 'EU' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BookingFailure);
    expect((error as BookingFailure).status).toBe(422);
    expect(Object.keys((error as BookingFailure).error.fields ?? {}).sort()).toEqual([
      'checkIn',
      'email',
      'nationality',
    ]);
  });

  it('answers "busy, try again in N seconds" when the lodging budget is spent', async () => {
    const s = service({ lodgingPerMinute: 3 });
    const search = (n: number) =>
      s.availability({
        property: PROPERTY,
        checkIn: day(350 + n),
        checkOut: day(351 + n),
        adults: 1,
        children: 0,
      });
    const error = await (async () => {
      for (let n = 0; n < 5; n += 1) {
        try {
          await search(n);
        } catch (caught) {
          return caught;
        }
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(BookingFailure);
    expect((error as BookingFailure).status).toBe(429);
    expect(english((error as BookingFailure).error.message)).toMatch(/try again in \d+ seconds?\./);
  });

  it('hides upstream failures behind a visitor-safe message', async () => {
    const s = service();
    await fetch(`${mock.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'lodging', errorRate: 1 }),
    });
    try {
      const error = await s.book(request()).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 503, error: { code: 'unavailable' } });
      expect(JSON.stringify((error as BookingFailure).error)).not.toMatch(
        /Server Error|lodging|\[/,
      );
    } finally {
      await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
    }
  });
});
