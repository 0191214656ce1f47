import { beforeEach, describe, expect, it } from 'vitest';
import { clearLodgingTokens, lodgingAuth } from '../../src/lib/lodging/auth.ts';
import {
  ForbiddenError,
  NotFoundError,
  UnauthenticatedError,
  ValidationError,
} from '../../src/lib/upstream/errors.ts';
import type { Upstream } from '../../src/lib/upstream/runtime.ts';
import { ctl, demo, freshUpstream, useMock } from './harness.ts';
import { lodgingTestClient } from './operations.ts';
import type { LodgingTestClient } from './operations.ts';
import { day } from '../fixtures/dates.ts';

const mock = useMock({ reset: true });
let up: Upstream;
let full: LodgingTestClient;
const account = demo.lodging['harbour-hotels'];
const other = demo.lodging['alpine-lodges'];
if (!account || !other) throw new Error('demo accounts missing');

beforeEach(() => {
  clearLodgingTokens();
  up = freshUpstream().up;
  full = client({ token: account.fullToken });
});

function client(credentials: { token: string } | { email: string; password: string }) {
  return lodgingTestClient({
    accountKey: 'harbour-hotels',
    baseUrl: mock.lodgingUrl,
    upstream: up,
    ...credentials,
  });
}

describe('lodging: every operation', () => {
  it('auth: login, me, logout', async () => {
    const login = await full.login(account.email, account.password);
    expect(login.user.email).toBe(account.email);
    const session = client({ token: login.token });
    expect((await session.me()).email).toBe(account.email);
    await session.logout();
    await expect(session.me({ fresh: true })).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(full.login(account.email, 'wrong')).rejects.toBeInstanceOf(ValidationError);
  });

  it('properties: list, get, availability', async () => {
    const properties = await full.listProperties();
    expect(properties.items.map((p) => p.id).sort()).toEqual([...account.propertyIds].sort());
    const id = account.propertyIds[0] ?? '';
    const property = await full.getProperty(id);
    expect(property.room_types.length).toBeGreaterThan(0);
    const availability = await full.getAvailability(id, {
      check_in: day(10),
      check_out: day(12),
      guests: 2,
    });
    expect(availability.nights).toBe(2);
    expect(availability.room_types.length).toBe(property.room_types.length);
    await expect(
      full.getAvailability(id, { check_in: day(12), check_out: day(10) }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(full.getProperty(other.propertyIds[0] ?? '')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('guests: create, list, get, update, delete', async () => {
    const guest = await full.createGuest({
      first_name: 'Ida',
      last_name: 'Integration',
      email: `ida-${Date.now()}@example.test`,
      phone: '+31201234567',
      nationality: 'NL',
    });
    expect(guest.id).toBeTruthy();
    const found = await full.listGuests({ search: 'integration' });
    expect(found.items.some((g) => g.id === guest.id)).toBe(true);
    expect((await full.getGuest(String(guest.id))).last_name).toBe('Integration');
    const updated = await full.updateGuest(String(guest.id), {
      first_name: 'Ida',
      last_name: 'Updated',
      email: guest.email ?? '',
    });
    expect(updated.last_name).toBe('Updated');
    await expect(
      full.createGuest({ first_name: 'X', last_name: 'Y', email: 'not-an-email' }),
    ).rejects.toBeInstanceOf(ValidationError);
    await full.deleteGuest(String(guest.id));
    await expect(full.getGuest(String(guest.id), { fresh: true })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('bookings: create, list, update, cancel', async () => {
    const propertyId = account.propertyIds[0] ?? '';
    const property = await full.getProperty(propertyId);
    const roomType = property.room_types[0];
    const guests = await full.listGuests();
    const guest = guests.items[0];
    if (!roomType || !guest) throw new Error('seed data missing');
    const booking = await full.createBooking({
      property_id: propertyId,
      room_type_id: String(roomType.id),
      guest_id: String(guest.id),
      check_in: day(20),
      check_out: day(22),
      adults: 1,
      notes: 'Integration test',
    });
    expect(booking.status).toBe('pending');
    const listed = await full.listBookings({
      property_id: propertyId,
      status: 'pending',
      perPage: 100,
    });
    expect(listed.items.some((b) => b.id === booking.id)).toBe(true);
    const confirmed = await full.updateBooking(String(booking.id), { status: 'confirmed' });
    expect(confirmed.status).toBe('confirmed');
    await expect(
      full.updateBooking(String(booking.id), { status: 'checked_out' }),
    ).rejects.toBeInstanceOf(ValidationError);
    const cancelled = await full.cancelBooking(String(booking.id));
    expect(cancelled?.status).toBe('cancelled');
  });

  it('a read-only token cannot write (ForbiddenError), a bad token is Unauthenticated', async () => {
    const reader = client({ token: account.readToken });
    expect((await reader.listGuests()).items.length).toBeGreaterThan(0);
    await expect(
      reader.createGuest({ first_name: 'A', last_name: 'B', email: 'ab@example.test' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(client({ token: 'nope' }).me()).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe('lodging auth helper', () => {
  it('logs in on first use, once for concurrent calls, reuses the token', async () => {
    const pw = client({ email: account.email, password: account.password });
    await Promise.all([pw.me(), pw.listProperties(), pw.listGuests()]);
    await pw.listBookings();
    expect((await ctl.stats(mock)).lodging.routes['POST /auth/login']).toBe(1);
  });

  it('logs in again after a 401 and retries the failed call once', async () => {
    const pw = client({ email: account.email, password: account.password });
    await pw.me();
    const auth = lodgingAuth({
      accountKey: 'harbour-hotels',
      baseUrl: mock.lodgingUrl,
      credentials: { email: account.email, password: account.password },
      upstream: up,
    });
    // Revoke the cached token behind the client's back.
    const token = await auth.token();
    await fetch(`${mock.lodgingUrl}/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
    expect((await pw.listBookings()).items.length).toBeGreaterThan(0);
    const stats = await ctl.stats(mock);
    expect(stats.lodging.routes['POST /auth/login']).toBe(2);
    expect(stats.lodging.routes['GET /bookings']).toBe(2);
  });

  it('an API token is never "re-logged in": its 401 is thrown', async () => {
    await expect(client({ token: 'revoked' }).listGuests()).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    expect((await ctl.stats(mock)).lodging.routes['POST /auth/login']).toBeUndefined();
  });
});
