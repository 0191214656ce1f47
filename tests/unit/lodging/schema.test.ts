import { describe, expect, it } from 'vitest';
import {
  availabilitySchema,
  bookingListSchema,
  cancelResultSchema,
  singlePropertySchema,
} from '../../../src/lib/lodging/schema.ts';
import { loginSchema, parseOrThrow } from '../../../src/lib/upstream/parse.ts';

const ctx = { service: 'lodging' as const, operation: 'test' };
const booking = {
  id: 'b1',
  property_id: 'p1',
  room_type_id: 'r1',
  guest_id: 'g1',
  check_in: '2026-12-01',
  check_out: '2026-12-03',
  adults: 2,
  children: 0,
  status: 'pending',
  total_price: '240.00',
};

describe('lodging schemas are lenient', () => {
  it.each([
    ['unwrapped (contract)', { user: { id: 'u', name: 'M' }, token: 't', token_type: 'Bearer' }],
    ['in an envelope', { data: { user: { id: 'u', name: 'M' }, token: 't' } }],
  ])('login %s', (_name, body) => {
    expect(parseOrThrow(loginSchema, body, ctx).token).toBe('t');
  });

  it('a property with only an id', () => {
    expect(parseOrThrow(singlePropertySchema, { data: { id: 'p1' } }, ctx)).toMatchObject({
      id: 'p1',
      room_types: [],
    });
  });

  it.each([
    ['one of two', [{ id: 'r1', name: 'Double' }, { name: 'no id' }], ['r1']],
    ['all', [{ name: 'no id' }, { id: { odd: true } }], []],
  ])(
    'a property whose room types are unreadable (%s) still shows, and reports each one left out',
    (_name, rooms, kept) => {
      const dropped: unknown[] = [];
      const property = parseOrThrow(
        singlePropertySchema,
        { data: { id: 'p1', room_types: rooms } },
        { ...ctx, dropped: (item) => dropped.push(item) },
      );
      expect(property.room_types.map((room) => room.id)).toEqual(kept);
      expect(dropped).toHaveLength(rooms.length - kept.length);
      expect(dropped[0]).toMatchObject({
        index: kept.length ? 1 : 0,
        issues: expect.stringMatching(/^id: /) as unknown,
      });
    },
  );

  it('availability numbers as strings', () => {
    const parsed = parseOrThrow(
      availabilitySchema,
      {
        property_id: 'p1',
        check_in: '2026-12-01',
        check_out: '2026-12-03',
        nights: '2',
        room_types: [{ room_type_id: 'r1', available: 1, available_rooms: '3', total_price: 200 }],
      },
      ctx,
    );
    expect(parsed.nights).toBe(2);
    expect(parsed.room_types[0]).toMatchObject({
      available: true,
      available_rooms: 3,
      total_price: '200.00',
    });
  });

  it.each([
    ['paginator', { data: [booking], meta: { total: 1 }, links: {} }],
    ['bare array', [booking]],
  ])('booking list as %s', (_name, body) => {
    expect(parseOrThrow(bookingListSchema, body, ctx).items[0]?.status).toBe('pending');
  });

  it.each([
    ['a date', '2026-12-01'],
    ['a date cast', '2026-12-01T00:00:00.000000Z'],
    ['a SQL DATETIME (Laravel without a cast)', '2026-12-01 00:00:00'],
    ['a time with an offset', '2026-12-01T00:00:00+01:00'],
  ])('a booking date sent as %s is the day', (_name, checkIn) => {
    const [parsed] = parseOrThrow(
      bookingListSchema,
      [{ ...booking, check_in: checkIn }],
      ctx,
    ).items;
    // Compared as-is with the day the guest asked for (create.ts finds a booking after a lost answer).
    expect(parsed?.check_in).toBe('2026-12-01');
  });

  it('cancel answers with the booking or only a message', () => {
    expect(
      parseOrThrow(cancelResultSchema, { data: { ...booking, status: 'cancelled' } }, ctx).data
        ?.status,
    ).toBe('cancelled');
    expect(parseOrThrow(cancelResultSchema, { message: 'Cancelled.' }, ctx).data).toBeNull();
  });
});
