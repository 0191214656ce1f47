import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demo, expectBody, expectError, isoDay, useMock, type Call } from './helpers.ts';
import {
  AvailabilitySchema,
  BookingSchema,
  GuestSchema,
  one,
  page,
  PropertySchema,
} from './schemas.ts';
import {
  AltAvailabilitySchema,
  AltBookingSchema,
  AltGuestSchema,
  AltPropertySchema,
  cursorPage,
  rawPage,
} from './schemas-alt.ts';

/**
 * One row per silence of lodging-api.md that the dialects fill differently
 * (docs/api-assumptions.md, "Dialects"): the default mock answers the default shape, the alt mock
 * the alt shape.
 */

const def = useMock();
const alt = useMock({ dialect: 'alt' });
type Mock = typeof def;

const harbour = demo.lodging['harbour-hotels'];
const hotel = harbour.propertyIds[0] ?? '';
const cottages = harbour.propertyIds[1] ?? '';
const full = (init: Call = {}): Call => ({ token: harbour.fullToken, ...init });

/** A Thursday at least `minDays` ahead: Thu → Sun is one weekday and two weekend nights. */
function thursday(minDays: number): string {
  let d = minDays;
  while (new Date(`${isoDay(d)}T00:00:00Z`).getUTCDay() !== 4) d++;
  return isoDay(d);
}
const after = (day: string, nights: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10);

const DefaultProperty = one(PropertySchema);
const AltPropertyList = z.array(AltPropertySchema);

async function defaultRoom(t: Mock, property = hotel, index = 0) {
  const { data } = expectBody(
    await t.lodge(`/properties/${property}`, full()),
    200,
    DefaultProperty,
  );
  return data.room_types[index]?.id ?? '';
}
async function altRoom(t: Mock, property = hotel, index = 0) {
  const p = expectBody(await t.lodge(`/properties/${property}`, full()), 200, AltPropertySchema);
  return p.room_types[index]?.id ?? '';
}
async function defaultGuest(t: Mock) {
  return expectBody(await t.lodge('/guests', full()), 200, page(GuestSchema)).data[0]?.id ?? '';
}
async function altGuest(t: Mock) {
  return (
    expectBody(await t.lodge('/guests', full()), 200, cursorPage(AltGuestSchema)).data[0]?.id ?? ''
  );
}
const book = (t: Mock, body: Record<string, unknown>) =>
  t.lodge('/bookings', full({ method: 'POST', body }));

type Pair = { silence: string; default: () => Promise<void>; alt: () => Promise<void> };

const pairs: Pair[] = [
  {
    silence: 'single resource envelope',
    default: async () => {
      expectBody(await def.lodge(`/properties/${hotel}`, full()), 200, DefaultProperty);
      expectBody(
        await def.lodge('/auth/me', full()),
        200,
        one(z.object({ id: z.uuid(), name: z.string(), email: z.email() })),
      );
    },
    alt: async () => {
      expectBody(await alt.lodge(`/properties/${hotel}`, full()), 200, AltPropertySchema);
      expectBody(
        await alt.lodge('/auth/me', full()),
        200,
        z.strictObject({ id: z.uuid(), name: z.string(), email: z.email() }),
      );
    },
  },
  {
    silence: 'property address, currency and check-in time fields',
    default: async () => {
      const { data } = expectBody(
        await def.lodge(`/properties/${hotel}`, full()),
        200,
        DefaultProperty,
      );
      expect(data).toMatchObject({
        address: 'Ferry Street 12',
        city: 'Port Haven',
        currency: 'EUR',
        check_in_time: '15:00',
      });
    },
    alt: async () => {
      const p = expectBody(await alt.lodge(`/properties/${hotel}`, full()), 200, AltPropertySchema);
      expect(p).toMatchObject({
        address: {
          street: 'Ferry Street 12',
          city: 'Port Haven',
          postcode: 'PH1 4QD',
          country: 'GB',
        },
        currency_code: 'GBP',
        check_in_from: '15:00:00',
      });
      const other = expectBody(
        await alt.lodge(`/properties/${cottages}`, full()),
        200,
        AltPropertySchema,
      );
      expect(other.currency_code).toBe('EUR');
    },
  },
  {
    silence: 'room type capacity and price',
    default: async () => {
      const { data } = expectBody(
        await def.lodge(`/properties/${hotel}`, full()),
        200,
        DefaultProperty,
      );
      expect(data.room_types[0]).toMatchObject({
        max_adults: 2,
        max_children: 1,
        max_occupancy: 3,
        base_price: '119.00',
        total_rooms: 12,
      });
    },
    alt: async () => {
      const p = expectBody(await alt.lodge(`/properties/${hotel}`, full()), 200, AltPropertySchema);
      expect(p.room_types[0]).toMatchObject({
        capacity: { adults: 2, children: 1, total: 3 },
        rate: 119.5,
        weekend_rate: 137.43,
        units: 12,
      });
    },
  },
  {
    silence: 'property list envelope',
    default: async () => {
      const list = expectBody(await def.lodge('/properties', full()), 200, page(PropertySchema));
      expect(list.meta.total).toBe(2);
    },
    alt: async () => {
      const list = expectBody(await alt.lodge('/properties', full()), 200, AltPropertyList);
      expect(list.map((p) => p.name)).toEqual(['Dune Cottages', 'Harbour View Hotel']);
      const second = await alt.lodge('/properties?page=2&per_page=1', full());
      expect(expectBody(second, 200, AltPropertyList).map((p) => p.name)).toEqual([
        'Harbour View Hotel',
      ]);
    },
  },
  {
    silence: 'booking list envelope',
    default: async () => {
      const list = expectBody(await def.lodge('/bookings', full()), 200, page(BookingSchema));
      expect(list.meta.per_page).toBe(15);
    },
    alt: async () => {
      const first = expectBody(
        await alt.lodge('/bookings', full()),
        200,
        rawPage(AltBookingSchema),
      );
      expect(first).toMatchObject({ current_page: 1, per_page: 10, prev_page_url: null });
      expect(first.total).toBeGreaterThan(10);
      const next = await alt.lodge(first.next_page_url?.split('/api/v1')[1] ?? '', full());
      const second = expectBody(next, 200, rawPage(AltBookingSchema));
      expect(second.current_page).toBe(2);
      expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
    },
  },
  {
    silence: 'guest list envelope (cursor pages)',
    default: async () => {
      const list = expectBody(
        await def.lodge('/guests?per_page=5', full()),
        200,
        page(GuestSchema),
      );
      expect(list.meta.total).toBeGreaterThanOrEqual(24);
    },
    alt: async () => {
      const ids: string[] = [];
      let path = '/guests?per_page=5&page=3'; // `page` is ignored by a cursor paginator
      for (let i = 0; i < 20 && path; i++) {
        const res = expectBody(await alt.lodge(path, full()), 200, cursorPage(AltGuestSchema));
        ids.push(...res.data.map((g) => g.id));
        path = res.next_page_url?.split('/api/v1')[1] ?? '';
      }
      expect(ids.length).toBeGreaterThanOrEqual(24);
      expect(new Set(ids).size).toBe(ids.length);
    },
  },
  {
    silence: 'per_page default and maximum',
    default: async () => {
      const list = expectBody(
        await def.lodge('/guests?per_page=500', full()),
        200,
        page(GuestSchema),
      );
      expect(list.meta.per_page).toBe(100);
    },
    alt: async () => {
      expectError(
        await alt.lodge('/guests?per_page=51', full()),
        422,
        'The per page field must not be greater than 50.',
      );
    },
  },
  {
    silence: 'availability result, nightly rates with a weekend surcharge',
    default: async () => {
      const from = thursday(70);
      const res = await def.lodge(
        `/properties/${hotel}/availability?check_in=${from}&check_out=${after(from, 3)}&guests=2`,
        full(),
      );
      const { data } = expectBody(res, 200, one(AvailabilitySchema));
      expect(data.room_types[0]).toMatchObject({
        available: true,
        price_per_night: '119.00',
        total_price: '357.00',
      });
    },
    alt: async () => {
      const from = thursday(70);
      const res = await alt.lodge(
        `/properties/${hotel}/availability?check_in=${from}&check_out=${after(from, 3)}&guests=2`,
        full(),
      );
      const body = expectBody(res, 200, AltAvailabilitySchema);
      expect(body).toMatchObject({ currency_code: 'GBP', period: { nights: 3 } });
      const room = body.rooms[0];
      expect(room?.units_available).toBe('12');
      expect(room?.nightly_rates).toEqual([
        { date: from, rate: 119.5 },
        { date: after(from, 1), rate: 137.43 },
        { date: after(from, 2), rate: 137.43 },
      ]);
      expect(room?.total).toBe(394.36);
    },
  },
  {
    silence: 'created booking: status code, status word, dates, money, reference',
    default: async () => {
      const from = thursday(80);
      const res = await book(def, {
        property_id: hotel,
        room_type_id: await defaultRoom(def),
        guest_id: await defaultGuest(def),
        check_in: from,
        check_out: after(from, 3),
        adults: 2,
        children: 0,
      });
      const { data } = expectBody(res, 201, one(BookingSchema));
      expect(data).toMatchObject({
        status: 'pending',
        check_in: from,
        total_price: '357.00',
        currency: 'EUR',
      });
    },
    alt: async () => {
      const from = thursday(80);
      const res = await book(alt, {
        property_id: hotel,
        room_type_id: await altRoom(alt),
        guest_id: await altGuest(alt),
        check_in: from,
        check_out: after(from, 3),
        adults: 2,
        children: 0,
      });
      const b = expectBody(res, 200, AltBookingSchema);
      expect(b).toMatchObject({
        status: 'tentative',
        check_in: `${from}T00:00:00.000000Z`,
        total_amount: 394.36,
        currency_code: 'GBP',
      });
      expect(b.nightly_rates.map((n) => n.rate)).toEqual([119.5, 137.43, 137.43]);
    },
  },
  {
    silence: 'cancel (DELETE): status code and status word',
    default: async () => {
      const { data } = expectBody(
        await def.lodge('/bookings?status=confirmed', full()),
        200,
        page(BookingSchema),
      );
      const id = data[0]?.id ?? '';
      const res = await def.lodge(`/bookings/${id}`, full({ method: 'DELETE' }));
      expect(expectBody(res, 200, one(BookingSchema)).data.status).toBe('cancelled');
    },
    alt: async () => {
      const list = expectBody(
        await alt.lodge('/bookings?status=confirmed', full()),
        200,
        rawPage(AltBookingSchema),
      );
      const id = list.data[0]?.id ?? '';
      const res = await alt.lodge(`/bookings/${id}`, full({ method: 'DELETE' }));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const after = expectBody(
        await alt.lodge('/bookings?status=canceled&per_page=50', full()),
        200,
        rawPage(AltBookingSchema),
      );
      expect(after.data.map((b) => b.id)).toContain(id);
    },
  },
  {
    silence: 'booking status values and transitions',
    default: async () => {
      const statuses = expectBody(
        await def.lodge('/bookings?per_page=100', full()),
        200,
        page(BookingSchema),
      ).data.map((b) => b.status);
      expect(new Set(statuses)).toEqual(
        new Set(['pending', 'confirmed', 'cancelled', 'checked_out', 'no_show']),
      );
      expect((await def.lodge('/bookings?status=tentative', full())).status).toBe(422);
    },
    alt: async () => {
      const all = expectBody(
        await alt.lodge('/bookings?per_page=50', full()),
        200,
        rawPage(AltBookingSchema),
      ).data;
      const statuses = new Set(all.map((b) => b.status));
      for (const s of ['requested', 'tentative', 'confirmed', 'booked', 'canceled']) {
        expect(statuses, s).toContain(s);
      }
      expect((await alt.lodge('/bookings?status=pending', full())).status).toBe(422);
      // `confirmed` is the contract's word: accepted on update in both dialects.
      const tentative = all.find((b) => b.status === 'tentative');
      const res = await alt.lodge(
        `/bookings/${tentative?.id}`,
        full({ method: 'PATCH', body: { status: 'confirmed' } }),
      );
      expect(expectBody(res, 200, AltBookingSchema).status).toBe('confirmed');
    },
  },
  {
    silence: 'a tentative (new) booking holds the room',
    default: async () => {
      const from = isoDay(90);
      const body = {
        property_id: cottages,
        room_type_id: await defaultRoom(def, cottages, 1),
        guest_id: await defaultGuest(def),
        check_in: from,
        check_out: after(from, 2),
        adults: 2,
        children: 0,
      };
      expect((await book(def, body)).status).toBe(201);
      expect((await book(def, body)).status).toBe(201);
      expectError(
        await book(def, body),
        422,
        'No rooms of this type are available for the selected dates.',
      );
    },
    alt: async () => {
      const from = isoDay(90);
      const body = {
        property_id: cottages,
        room_type_id: await altRoom(alt, cottages, 1),
        guest_id: await altGuest(alt),
        check_in: from,
        check_out: after(from, 2),
        adults: 2,
        children: 0,
      };
      expect(expectBody(await book(alt, body), 200, AltBookingSchema).status).toBe('tentative');
      expect((await book(alt, body)).status).toBe(200);
      expectError(
        await book(alt, body),
        422,
        'No rooms of this type are available for the selected dates.',
      );
      const avail = expectBody(
        await alt.lodge(
          `/properties/${cottages}/availability?check_in=${from}&check_out=${after(from, 2)}`,
          full(),
        ),
        200,
        AltAvailabilitySchema,
      );
      expect(avail.rooms[1]?.units_available).toBe('0');
    },
  },
  {
    silence: 'required booking fields: children',
    default: async () => {
      const from = isoDay(110);
      const res = await book(def, {
        property_id: hotel,
        room_type_id: await defaultRoom(def),
        guest_id: await defaultGuest(def),
        check_in: from,
        check_out: after(from, 1),
        adults: 1,
      });
      expect(expectBody(res, 201, one(BookingSchema)).data.children).toBe(0);
    },
    alt: async () => {
      const from = isoDay(110);
      const res = await book(alt, {
        property_id: hotel,
        room_type_id: await altRoom(alt),
        guest_id: await altGuest(alt),
        check_in: from,
        check_out: after(from, 1),
        adults: 1,
      });
      expectError(res, 422, 'The children field is required.', {
        children: ['The children field is required.'],
      });
    },
  },
  {
    silence: 'notes limit',
    default: async () => {
      const from = isoDay(100);
      const res = await book(def, {
        property_id: hotel,
        room_type_id: await defaultRoom(def),
        guest_id: await defaultGuest(def),
        check_in: from,
        check_out: after(from, 1),
        adults: 1,
        children: 0,
        notes: 'n'.repeat(1000),
      });
      expect(res.status).toBe(201);
    },
    alt: async () => {
      const from = isoDay(100);
      const res = await book(alt, {
        property_id: hotel,
        room_type_id: await altRoom(alt),
        guest_id: await altGuest(alt),
        check_in: from,
        check_out: after(from, 1),
        adults: 1,
        children: 0,
        notes: 'n'.repeat(501),
      });
      expectError(res, 422, 'The notes field must not be greater than 500 characters.', {
        notes: ['The notes field must not be greater than 500 characters.'],
      });
    },
  },
  {
    silence: 'guest phone: required or optional, and its format',
    default: async () => {
      const guest = { first_name: 'Pat', last_name: 'Nophone', email: 'pat.nophone@example.com' };
      const res = await def.lodge('/guests', full({ method: 'POST', body: guest }));
      expect(expectBody(res, 201, one(GuestSchema)).data.phone).toBeNull();
      const spaced = { ...guest, email: 'pat.spaced@example.com', phone: '+44 20 7946 0958' };
      expectError(
        await def.lodge('/guests', full({ method: 'POST', body: spaced })),
        422,
        'The phone field format is invalid.',
      );
    },
    alt: async () => {
      const guest = { first_name: 'Pat', last_name: 'Nophone', email: 'pat.nophone@example.com' };
      expectError(
        await alt.lodge('/guests', full({ method: 'POST', body: guest })),
        422,
        'The phone field is required.',
        { phone: ['The phone field is required.'] },
      );
      const spaced = { ...guest, phone: '+44 20 7946 0958' };
      const res = await alt.lodge('/guests', full({ method: 'POST', body: spaced }));
      expect(expectBody(res, 200, AltGuestSchema).phone).toBe('+44 20 7946 0958');
    },
  },
  {
    silence: 'guest search: what it matches',
    default: async () => {
      const g = expectBody(await def.lodge('/guests', full()), 200, page(GuestSchema)).data[0];
      const byEmail = await def.lodge(`/guests?search=${g?.email}`, full());
      expect(expectBody(byEmail, 200, page(GuestSchema)).data.map((x) => x.id)).toEqual([g?.id]);
    },
    alt: async () => {
      const g = expectBody(await alt.lodge('/guests', full()), 200, cursorPage(AltGuestSchema))
        .data[0];
      const byEmail = await alt.lodge(`/guests?search=${g?.email}`, full());
      expect(expectBody(byEmail, 200, cursorPage(AltGuestSchema)).data).toEqual([]);
      const byName = await alt.lodge(
        `/guests?search=${encodeURIComponent(`${g?.first_name} ${g?.last_name}`)}`,
        full(),
      );
      expect(expectBody(byName, 200, cursorPage(AltGuestSchema)).data.map((x) => x.id)).toEqual([
        g?.id,
      ]);
    },
  },
  {
    silence: 'guest create: status code; a taken e-mail (same in both)',
    default: async () => {
      const body = { first_name: 'Dee', last_name: 'Fault', email: 'dee@example.com' };
      expect((await def.lodge('/guests', full({ method: 'POST', body }))).status).toBe(201);
      expectError(
        await def.lodge('/guests', full({ method: 'POST', body })),
        422,
        'The email has already been taken.',
      );
    },
    alt: async () => {
      const body = {
        first_name: 'Al',
        last_name: 'Ternate',
        email: 'al@example.com',
        phone: '020 7946 0000',
      };
      expect((await alt.lodge('/guests', full({ method: 'POST', body }))).status).toBe(200);
      expectError(
        await alt.lodge('/guests', full({ method: 'POST', body })),
        422,
        'The email has already been taken.',
      );
    },
  },
  {
    silence: 'delete guest, log out: status code and body',
    default: async () => {
      const body = { first_name: 'Del', last_name: 'Default', email: 'del.d@example.com' };
      const { data } = expectBody(
        await def.lodge('/guests', full({ method: 'POST', body })),
        201,
        one(GuestSchema),
      );
      const res = await def.lodge(`/guests/${data.id}`, full({ method: 'DELETE' }));
      expect(res.body).toEqual({ message: 'Guest deleted.' });
    },
    alt: async () => {
      const body = {
        first_name: 'Del',
        last_name: 'Alt',
        email: 'del.a@example.com',
        phone: '+15550100',
      };
      const g = expectBody(
        await alt.lodge('/guests', full({ method: 'POST', body })),
        200,
        AltGuestSchema,
      );
      const res = await alt.lodge(`/guests/${g.id}`, full({ method: 'DELETE' }));
      expect([res.status, res.text]).toEqual([204, '']);
      const login = await alt.lodge('/auth/login', {
        method: 'POST',
        body: { email: harbour.email, password: harbour.password },
      });
      const token = (login.body as { token: string }).token;
      const out = await alt.lodge('/auth/logout', { method: 'POST', token });
      expect([out.status, out.text]).toEqual([204, '']);
    },
  },
  {
    silence: '422 message with several errors',
    default: async () => {
      expectError(
        await def.lodge('/guests', full({ method: 'POST', body: {} })),
        422,
        'The first name field is required.',
      );
    },
    alt: async () => {
      expectError(
        await alt.lodge('/guests', full({ method: 'POST', body: {} })),
        422,
        'The first name field is required. (and 3 more errors)',
      );
    },
  },
];

describe.each(pairs)('$silence', (pair) => {
  it('default dialect', pair.default);
  it('alt dialect', pair.alt);
});
