import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demo, expectBody, expectError, isoDay, useMock } from './helpers.ts';
import {
  AvailabilitySchema,
  BookingSchema,
  GuestSchema,
  one,
  page,
  PropertySchema,
} from './schemas.ts';

const t = useMock();
const harbour = demo.lodging['harbour-hotels'];
const alpine = demo.lodging['alpine-lodges'];
const full = { token: harbour.fullToken };
const read = { token: harbour.readToken };
const hotel = harbour.propertyIds[0] ?? '';

async function roomType(name: string) {
  const { data } = expectBody(
    await t.lodge(`/properties/${hotel}`, full),
    200,
    one(PropertySchema),
  );
  const rt = data.room_types.find((r) => r.name === name);
  if (!rt) throw new Error(name);
  return rt;
}

async function anyGuest() {
  const { data } = expectBody(await t.lodge('/guests', full), 200, page(GuestSchema));
  return data[0]?.id ?? '';
}

describe('lodging auth', () => {
  const Login = z.strictObject({
    user: z.strictObject({ id: z.uuid(), name: z.string(), email: z.email() }),
    token: z.string().regex(/^\d+\|[A-Za-z0-9]{40}$/),
    token_type: z.literal('Bearer'),
  });

  it('logs in (unwrapped body), reads /auth/me and logs out', async () => {
    const body = expectBody(
      await t.lodge('/auth/login', {
        method: 'POST',
        body: { email: harbour.email, password: harbour.password },
      }),
      200,
      Login,
    );
    const me = await t.lodge('/auth/me', { token: body.token });
    expect(me.body).toEqual({ data: body.user });
    // Login tokens have full access.
    expect(
      (
        await t.lodge('/guests', {
          token: body.token,
          method: 'POST',
          body: { first_name: 'A', last_name: 'B', email: 'login-token@example.com' },
        })
      ).status,
    ).toBe(201);
    expect((await t.lodge('/auth/logout', { method: 'POST', token: body.token })).body).toEqual({
      message: 'Logged out.',
    });
    expectError(await t.lodge('/auth/me', { token: body.token }), 401, 'Unauthenticated.');
  });

  it.each([
    [
      {},
      { email: ['The email field is required.'], password: ['The password field is required.'] },
    ],
    [
      { email: harbour.email, password: 'wrong' },
      { email: ['These credentials do not match our records.'] },
    ],
  ])('rejects login %j with 422', async (body, errors) => {
    expectError(
      await t.lodge('/auth/login', { method: 'POST', body }),
      422,
      Object.values(errors)[0]?.[0] ?? '',
      errors,
    );
  });

  it.each([
    ['GET', '/auth/me'],
    ['POST', '/auth/logout'],
    ['GET', '/properties'],
    ['GET', `/properties/${hotel}`],
    ['GET', `/properties/${hotel}/availability`],
    ['GET', '/bookings'],
    ['POST', '/bookings'],
    ['PATCH', '/bookings/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/bookings/00000000-0000-4000-8000-000000000000'],
    ['GET', '/guests'],
    ['POST', '/guests'],
    ['GET', '/guests/00000000-0000-4000-8000-000000000000'],
    ['PUT', '/guests/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/guests/00000000-0000-4000-8000-000000000000'],
  ])('%s %s without a token → 401 Unauthenticated.', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expectError(await t.lodge(path, { method, body }), 401, 'Unauthenticated.');
    expectError(await t.lodge(path, { method, body, token: '1|invalid' }), 401, 'Unauthenticated.');
  });

  it.each([
    ['POST', '/bookings'],
    ['PATCH', '/bookings/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/bookings/00000000-0000-4000-8000-000000000000'],
    ['POST', '/guests'],
    ['PUT', '/guests/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/guests/00000000-0000-4000-8000-000000000000'],
  ])('%s %s with a read-only token → 403', async (method, path) => {
    expectError(
      await t.lodge(path, { method, body: {}, ...read }),
      403,
      'This action is unauthorized.',
    );
  });

  it('lets the read-only token read', async () => {
    expect((await t.lodge('/bookings', read)).status).toBe(200);
    expect((await t.lodge('/auth/me', read)).status).toBe(200);
  });

  it('answers 404 Route not found. for unknown routes', async () => {
    expectError(await t.lodge('/nope', full), 404, 'Route not found.');
  });
});

describe('properties and account separation', () => {
  it('lists the account’s own properties in the paginator envelope (per_page default 15)', async () => {
    const body = expectBody(await t.lodge('/properties', full), 200, page(PropertySchema));
    expect(body.meta.per_page).toBe(15);
    expect(body.data.map((p) => p.id).sort()).toEqual([...harbour.propertyIds].sort());
    expect(body.data.every((p) => p.currency === 'EUR' && p.room_types.length >= 2)).toBe(true);
    const other = expectBody(
      await t.lodge('/properties', { token: alpine.fullToken }),
      200,
      page(PropertySchema),
    );
    expect(other.data.map((p) => p.id)).toEqual(alpine.propertyIds);
    expect(other.data[0]?.currency).toBe('CHF');
  });

  it('hides other accounts’ records behind 404', async () => {
    expectError(
      await t.lodge(`/properties/${alpine.propertyIds[0]}`, full),
      404,
      'Route not found.',
    );
    const alpineGuest = expectBody(
      await t.lodge('/guests', { token: alpine.fullToken }),
      200,
      page(GuestSchema),
    ).data[0];
    expectError(await t.lodge(`/guests/${alpineGuest?.id}`, full), 404, 'Route not found.');
    const alpineBooking = expectBody(
      await t.lodge('/bookings', { token: alpine.fullToken }),
      200,
      page(BookingSchema),
    ).data[0];
    expectError(
      await t.lodge(`/bookings/${alpineBooking?.id}`, { ...full, method: 'DELETE' }),
      404,
      'Route not found.',
    );
    expectError(await t.lodge('/properties/not-a-uuid', full), 404, 'Route not found.');
  });
});

describe('availability and bookings', () => {
  const range = { check_in: isoDay(200), check_out: isoDay(203) };
  const q = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ ...range, guests: '2', ...extra }).toString();

  it('computes availability per room type with prices', async () => {
    const { data } = expectBody(
      await t.lodge(`/properties/${hotel}/availability?${q()}`, full),
      200,
      one(AvailabilitySchema),
    );
    expect(data).toMatchObject({ property_id: hotel, nights: 3, guests: 2, currency: 'EUR' });
    const suite = data.room_types.find((r) => r.name === 'Sea View Suite');
    expect(suite).toMatchObject({
      available_rooms: 4,
      available: true,
      price_per_night: '219.00',
      total_price: '657.00',
    });
    // guests above max_occupancy → not available
    const single = data.room_types.find((r) => r.name === 'Single Cabin');
    expect(single?.available).toBe(false);
  });

  it.each([
    [{ check_in: '', check_out: '' }, { check_in: ['The check in field is required.'] }],
    [
      { check_in: '2030-02-30', check_out: isoDay(203) },
      { check_in: ['The check in field must match the format Y-m-d.'] },
    ],
    [
      { check_in: isoDay(203), check_out: isoDay(200) },
      { check_out: ['The check out field must be a date after check in.'] },
    ],
    [
      { check_in: isoDay(-3), check_out: isoDay(2) },
      { check_in: ['The check in field must be a date after or equal to today.'] },
    ],
    [
      { check_in: isoDay(10), check_out: isoDay(50) },
      { check_out: ['The stay must not be longer than 30 nights.'] },
    ],
    [{ guests: '0' }, { guests: ['The guests field must be at least 1.'] }],
  ])('rejects availability query %j with 422', async (params, errors) => {
    const res = await t.lodge(`/properties/${hotel}/availability?${q(params)}`, full);
    expectError(res, 422, Object.values(errors)[0]?.[0] ?? '', errors);
  });

  it('shrinks availability after a booking and grows it after cancel', async () => {
    const suite = await roomType('Sea View Suite');
    const guestId = await anyGuest();
    const avail = async () =>
      expectBody(
        await t.lodge(`/properties/${hotel}/availability?${q()}`, full),
        200,
        one(AvailabilitySchema),
      ).data.room_types.find((r) => r.room_type_id === suite.id)?.available_rooms;
    expect(await avail()).toBe(4);
    const created = expectBody(
      await t.lodge('/bookings', {
        ...full,
        method: 'POST',
        body: {
          property_id: hotel,
          room_type_id: suite.id,
          guest_id: guestId,
          ...range,
          adults: 2,
          children: 1,
          notes: 'Sea view please',
        },
      }),
      201,
      one(BookingSchema),
    ).data;
    expect(created).toMatchObject({
      status: 'pending',
      nights: 3,
      total_price: '657.00',
      currency: 'EUR',
      children: 1,
    });
    expect(await avail()).toBe(3);
    const cancelled = expectBody(
      await t.lodge(`/bookings/${created.id}`, { ...full, method: 'DELETE' }),
      200,
      one(BookingSchema),
    ).data;
    expect(cancelled.status).toBe('cancelled');
    expect(await avail()).toBe(4);
  });

  it('refuses a booking when no room of the type is free', async () => {
    const suite = await roomType('Sea View Suite');
    const guestId = await anyGuest();
    const stay = { check_in: isoDay(250), check_out: isoDay(252) };
    const body = {
      property_id: hotel,
      room_type_id: suite.id,
      guest_id: guestId,
      ...stay,
      adults: 1,
    };
    for (let i = 0; i < suite.total_rooms; i++) {
      expect((await t.lodge('/bookings', { ...full, method: 'POST', body })).status).toBe(201);
    }
    expectError(
      await t.lodge('/bookings', { ...full, method: 'POST', body }),
      422,
      'No rooms of this type are available for the selected dates.',
    );
  });

  it.each([
    [
      {},
      {
        property_id: ['The property id field is required.'],
        adults: ['The adults field is required.'],
      },
    ],
    [{ property_id: 'x' }, { property_id: ['The property id field must be a valid UUID.'] }],
    [{ adults: 0 }, { adults: ['The adults field must be at least 1.'] }],
    [{ adults: 3 }, { adults: ['The adults field must not be greater than 2.'] }],
    [
      { notes: 'x'.repeat(1001) },
      { notes: ['The notes field must not be greater than 1000 characters.'] },
    ],
    [
      { check_out: isoDay(199) },
      { check_out: ['The check out field must be a date after check in.'] },
    ],
    [
      { room_type_id: '00000000-0000-4000-8000-000000000000' },
      { room_type_id: ['The selected room type id is invalid.'] },
    ],
    [
      { guest_id: '00000000-0000-4000-8000-000000000000' },
      { guest_id: ['The selected guest id is invalid.'] },
    ],
  ])('validates booking creation, case %#', async (patch, errors) => {
    const suite = await roomType('Standard Double');
    const base = {
      property_id: hotel,
      room_type_id: suite.id,
      guest_id: await anyGuest(),
      ...range,
      adults: 2,
    };
    const body = Object.keys(patch).length ? { ...base, ...patch } : {};
    const res = await t.lodge('/bookings', { ...full, method: 'POST', body });
    expectError(res, 422, Object.values(errors)[0]?.[0] ?? '', errors);
  });

  it('moves a booking through its statuses and rejects illegal transitions', async () => {
    const suite = await roomType('Standard Double');
    const body = {
      property_id: hotel,
      room_type_id: suite.id,
      guest_id: await anyGuest(),
      check_in: isoDay(1),
      check_out: isoDay(3),
      adults: 1,
    };
    const b = expectBody(
      await t.lodge('/bookings', { ...full, method: 'POST', body }),
      201,
      one(BookingSchema),
    ).data;
    const patch = (status: string) =>
      t.lodge(`/bookings/${b.id}`, { ...full, method: 'PATCH', body: { status } });
    expectError(
      await patch('checked_out'),
      422,
      'The status cannot change from pending to checked_out.',
    );
    expectError(await patch('archived'), 422, 'The selected status is invalid.');
    for (const status of ['confirmed', 'checked_in']) {
      expect(expectBody(await patch(status), 200, one(BookingSchema)).data.status).toBe(status);
    }
    expectError(
      await t.lodge(`/bookings/${b.id}`, { ...full, method: 'DELETE' }),
      422,
      'The status cannot change from checked_in to cancelled.',
    );
    expect(expectBody(await patch('checked_out'), 200, one(BookingSchema)).data.status).toBe(
      'checked_out',
    );
    const notes = await t.lodge(`/bookings/${b.id}`, {
      ...full,
      method: 'PATCH',
      body: { notes: 'Left a scarf' },
    });
    expect(expectBody(notes, 200, one(BookingSchema)).data).toMatchObject({
      notes: 'Left a scarf',
      status: 'checked_out',
    });
    expectError(
      await t.lodge('/bookings/00000000-0000-4000-8000-000000000000', {
        ...full,
        method: 'PATCH',
        body: {},
      }),
      404,
      'Route not found.',
    );
  });

  it('filters bookings by status, property, guest and check-in range', async () => {
    const all = expectBody(
      await t.lodge('/bookings?per_page=100', full),
      200,
      page(BookingSchema),
    ).data;
    expect(all.length).toBeGreaterThan(10);
    const confirmed = expectBody(
      await t.lodge('/bookings?status=confirmed&per_page=100', full),
      200,
      page(BookingSchema),
    ).data;
    expect(confirmed.length).toBe(all.filter((b) => b.status === 'confirmed').length);
    const cottages = harbour.propertyIds[1] ?? '';
    const byProp = expectBody(
      await t.lodge(`/bookings?property_id=${cottages}&per_page=100`, full),
      200,
      page(BookingSchema),
    ).data;
    expect(byProp.every((b) => b.property_id === cottages)).toBe(true);
    const guestId = all[0]?.guest_id ?? '';
    const byGuest = expectBody(
      await t.lodge(`/bookings?guest_id=${guestId}`, full),
      200,
      page(BookingSchema),
    ).data;
    expect(byGuest.length).toBeGreaterThan(0);
    expect(byGuest.every((b) => b.guest_id === guestId)).toBe(true);
    const from = isoDay(5);
    const to = isoDay(20);
    const ranged = expectBody(
      await t.lodge(`/bookings?check_in_from=${from}&check_in_to=${to}&per_page=100`, full),
      200,
      page(BookingSchema),
    ).data;
    expect(ranged.length).toBe(all.filter((b) => b.check_in >= from && b.check_in <= to).length);
    expectError(
      await t.lodge('/bookings?status=lost', full),
      422,
      'The selected status is invalid.',
    );
    expectError(
      await t.lodge('/bookings?check_in_from=soon', full),
      422,
      'The check in from field must match the format Y-m-d.',
    );
    const page2 = expectBody(
      await t.lodge('/bookings?per_page=5&page=2', full),
      200,
      page(BookingSchema),
    );
    expect(page2.meta).toMatchObject({ current_page: 2, per_page: 5, from: 6 });
  });
});

describe('guests', () => {
  const valid = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '+441234567890',
    nationality: 'GB',
  };

  it('creates, reads, replaces, searches and deletes a guest', async () => {
    const created = expectBody(
      await t.lodge('/guests', { ...full, method: 'POST', body: valid }),
      201,
      one(GuestSchema),
    ).data;
    expect(created).toMatchObject(valid);
    expect(
      expectBody(await t.lodge(`/guests/${created.id}`, full), 200, one(GuestSchema)).data,
    ).toEqual(created);
    const replaced = expectBody(
      await t.lodge(`/guests/${created.id}`, {
        ...full,
        method: 'PUT',
        body: { first_name: 'Augusta', last_name: 'King', email: 'ada@example.com' },
      }),
      200,
      one(GuestSchema),
    ).data;
    expect(replaced).toMatchObject({ first_name: 'Augusta', phone: null, nationality: null });
    for (const term of ['augusta', 'KING', 'ada@example']) {
      const found = expectBody(
        await t.lodge(`/guests?search=${term}`, full),
        200,
        page(GuestSchema),
      ).data;
      expect(found.map((g) => g.id)).toEqual([created.id]);
    }
    expect((await t.lodge(`/guests/${created.id}`, { ...full, method: 'DELETE' })).body).toEqual({
      message: 'Guest deleted.',
    });
    expectError(await t.lodge(`/guests/${created.id}`, full), 404, 'Route not found.');
  });

  it.each([
    [{ ...valid, first_name: '' }, { first_name: ['The first name field is required.'] }],
    [{ ...valid, email: 'nope' }, { email: ['The email field must be a valid email address.'] }],
    [{ ...valid, phone: '0123 456' }, { phone: ['The phone field format is invalid.'] }],
    [{ ...valid, nationality: 'XX' }, { nationality: ['The selected nationality is invalid.'] }],
    [{ ...valid, nationality: 'gb' }, { nationality: ['The selected nationality is invalid.'] }],
  ])('validates guest %#', async (body, errors) => {
    expectError(
      await t.lodge('/guests', {
        ...full,
        method: 'POST',
        body: { ...body, email: body.email === 'nope' ? 'nope' : `v${Math.random()}@example.com` },
      }),
      422,
      Object.values(errors)[0]?.[0] ?? '',
      errors,
    );
  });

  it('keeps e-mails unique per account, not across accounts', async () => {
    const body = { ...valid, email: 'twice@example.com' };
    expect((await t.lodge('/guests', { ...full, method: 'POST', body })).status).toBe(201);
    expectError(
      await t.lodge('/guests', { ...full, method: 'POST', body }),
      422,
      'The email has already been taken.',
    );
    expect(
      (await t.lodge('/guests', { token: alpine.fullToken, method: 'POST', body })).status,
    ).toBe(201);
  });
});
