import { describe, expect, it } from 'vitest';
import { demo, expectError, isoDay, useMock } from './helpers.ts';

/** Fault "saved, then 500": the write is stored, the answer is a 500 (both dialects). */

const harbour = demo.lodging['harbour-hotels'];
const hotel = harbour.propertyIds[0] ?? '';
const full = { token: harbour.fullToken };

type Listed = { id: string; check_in: string; guest_id: string };

/** The list's items whatever the dialect's envelope. */
const items = (body: unknown): Listed[] => (body as { data: Listed[] }).data;

describe.each(['default', 'alt'] as const)('%s dialect', (dialect) => {
  const t = useMock({ dialect });
  const fault = (body: Record<string, unknown>) =>
    t.control('/faults', { method: 'POST', body: { service: 'lodging', ...body } });

  async function bookingBody(offset: number) {
    const property = await t.lodge(`/properties/${hotel}`, full);
    const p = (property.body as { data?: unknown }).data ?? property.body;
    const roomType = (p as { room_types: { id: string }[] }).room_types[0]?.id;
    const guests = await t.lodge('/guests', full);
    return {
      property_id: hotel,
      room_type_id: roomType,
      guest_id: items(guests.body)[0]?.id,
      check_in: isoDay(offset),
      check_out: isoDay(offset + 2),
      adults: 1,
      children: 0,
    };
  }

  const bookingsOf = async (guestId: string, day: string) =>
    items(
      (await t.lodge(`/bookings?guest_id=${guestId}&check_in_from=${day}&check_in_to=${day}`, full))
        .body,
    );

  it('stores the booking and answers 500, once, then switches itself off', async () => {
    const body = await bookingBody(120);
    await fault({ savedThen500: true, savedThen500Route: 'POST /bookings', savedThen500Times: 1 });
    const res = await t.lodge('/bookings', { ...full, method: 'POST', body });
    expectError(res, 500, 'Server Error');
    expect(await bookingsOf(body.guest_id ?? '', body.check_in)).toHaveLength(1);

    const faults = await t.control('/faults');
    expect(faults.body).toMatchObject({ lodging: { savedThen500: false } });
    const again = await t.lodge('/bookings', { ...full, method: 'POST', body });
    expect(again.status).toBe(dialect === 'alt' ? 200 : 201);
    expect(await bookingsOf(body.guest_id ?? '', body.check_in)).toHaveLength(2);
  });

  it('leaves reads, failed writes and other routes alone', async () => {
    await fault({
      savedThen500: true,
      savedThen500Route: 'POST /bookings',
      savedThen500Times: null,
    });
    expect((await t.lodge('/properties', full)).status).toBe(200);
    const guest = {
      first_name: 'Ria',
      last_name: 'Route',
      email: `ria.${dialect}@example.com`,
      phone: '+4412345678',
    };
    expect((await t.lodge('/guests', { ...full, method: 'POST', body: guest })).status).toBe(
      dialect === 'alt' ? 200 : 201,
    );
    // A refused write stays a 422: nothing was saved.
    const invalid = await t.lodge('/bookings', { ...full, method: 'POST', body: {} });
    expect(invalid.status).toBe(422);
    await t.control('/faults', { method: 'DELETE' });
  });

  it('applies to every write without a route, until cleared', async () => {
    await fault({ savedThen500: true });
    const body = {
      first_name: 'Sal',
      last_name: 'Saved',
      email: `sal.${dialect}@example.com`,
      phone: '+4412345679',
    };
    for (const email of [body.email, `sal2.${dialect}@example.com`]) {
      const res = await t.lodge('/guests', { ...full, method: 'POST', body: { ...body, email } });
      expectError(res, 500, 'Server Error');
    }
    const found = items((await t.lodge('/guests?search=Saved', full)).body);
    expect(found).toHaveLength(2);
    await t.control('/faults', { method: 'DELETE' });
    expect((await t.control('/faults')).body).toMatchObject({ lodging: { savedThen500: false } });
  });

  it('works on the publishing service too (a comment is stored, the answer is 500)', async () => {
    await t.control('/faults', {
      method: 'POST',
      body: { service: 'publishing', savedThen500: true, savedThen500Times: 1 },
    });
    const editor = await t.login('editor');
    const res = await t.pub('/posts/welcome-to-our-new-website/comments', {
      method: 'POST',
      token: editor,
      body: { content: `Saved then 500 (${dialect}).` },
    });
    expectError(res, 500, 'Server Error');
    const list = await t.pub('/posts/welcome-to-our-new-website/comments?per_page=50');
    const contents = (list.body as { data: { content: string }[] }).data.map((c) => c.content);
    expect(contents).toContain(`Saved then 500 (${dialect}).`);
  });
});
