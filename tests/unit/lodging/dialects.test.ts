import { describe, expect, it } from 'vitest';
import {
  guestListSchema,
  singleAvailabilitySchema,
  singleBookingSchema,
  singlePropertySchema,
} from '../../../src/lib/lodging/schema.ts';
import { readProfileTexts } from '../../../src/lib/profiles/files.ts';
import { resolveProfile } from '../../../src/lib/profiles/schema.ts';
import { paged, parseOrThrow } from '../../../src/lib/upstream/parse.ts';
import { reshapeBody } from '../../../src/lib/upstream/profile.ts';

const ctx = { service: 'lodging' as const, operation: 'test' };
// What a tenant without a profile reads through: profiles/lodging-default.json.
const profile = resolveProfile('lodging', undefined, readProfileTexts());
const asRead = (operation: string, body: unknown) =>
  reshapeBody(body, profile?.operations[operation], 'item');

describe('lodging shapes of the other plausible reading', () => {
  it('a bare property with an address object, currency_code, SQL times and capacity objects', () => {
    const property = parseOrThrow(
      singlePropertySchema,
      asRead('properties.get', {
        id: 'p1',
        name: 'Harbour View Hotel',
        address: { street: '1 Quay', city: 'Brighton', postcode: 'BN1', country: 'GB' },
        currency_code: 'GBP',
        check_in_from: '15:00:00',
        check_out_until: '11:00:00',
        room_types: [
          {
            id: 'r1',
            name: 'Double',
            capacity: { adults: 2, children: 1, total: 3 },
            rate: 119.5,
            units: '12',
          },
          { id: 'r2', capacity: 'lots' },
        ],
      }),
      ctx,
    );
    expect(property).toMatchObject({
      address: '1 Quay',
      city: 'Brighton',
      country: 'GB',
      currency: 'GBP',
      check_in_time: '15:00',
      check_out_time: '11:00',
    });
    expect(property.room_types[0]).toMatchObject({
      max_adults: 2,
      max_children: 1,
      max_occupancy: 3,
      base_price: '119.50',
      total_rooms: 12,
    });
    // Readable enough to keep (no capacity): the mapping decides it cannot be booked.
    expect(property.room_types[1]).toMatchObject({ id: 'r2', max_occupancy: undefined });
  });

  it('bare availability with a period, units as strings and nightly rates, no available flag', () => {
    const availability = parseOrThrow(
      singleAvailabilitySchema,
      asRead('properties.availability', {
        property_id: 'p1',
        period: { check_in: '2026-12-03', check_out: '2026-12-06', nights: 3 },
        currency_code: 'GBP',
        rooms: [
          {
            room_type_id: 'r1',
            capacity: { adults: 2, children: 1, total: 3 },
            units_available: '12',
            nightly_rates: [
              { date: '2026-12-03', rate: 119.5 },
              { date: '2026-12-04', rate: 137.43 },
              { date: '2026-12-05', rate: 137.43 },
            ],
            total: 394.36,
          },
        ],
      }),
      ctx,
    );
    expect(availability).toMatchObject({ check_in: '2026-12-03', nights: 3, currency: 'GBP' });
    expect(availability.room_types[0]?.available ?? null).toBeNull();
    expect(availability.room_types[0]).toMatchObject({
      available_rooms: 12,
      max_occupancy: 3,
      total_price: '394.36',
      nightly_rates: ['119.50', '137.43', '137.43'],
    });
  });

  it('a bare booking with confirmation_code, date casts and total_amount', () => {
    const booking = parseOrThrow(
      singleBookingSchema,
      asRead('bookings.create', {
        id: 'b1',
        confirmation_code: 'HV-1234',
        property_id: 'p1',
        guest: { id: 'g1', first_name: 'A', last_name: 'B', email: 'a@b.c' },
        check_in: '2026-12-04T00:00:00.000000Z',
        check_out: '2026-12-06T00:00:00.000000Z',
        status: 'tentative',
        total_amount: 274.86,
        currency_code: 'GBP',
      }),
      ctx,
    );
    expect(booking).toMatchObject({
      reference: 'HV-1234',
      guest_id: 'g1',
      check_in: '2026-12-04',
      check_out: '2026-12-06',
      total_price: '274.86',
      currency: 'GBP',
    });
  });

  it('raw and cursor paginators keep their page information', () => {
    const guest = { id: 'g1', first_name: 'A', last_name: 'B', email: 'a@b.c' };
    const raw = parseOrThrow(
      guestListSchema,
      { current_page: 2, data: [guest], last_page: 3, per_page: 1, total: 3, links: [] },
      ctx,
    );
    expect(paged({}).map(raw).page).toMatchObject({ current: 2, last: 3, total: 3 });
    const cursor = parseOrThrow(
      guestListSchema,
      { data: [guest], path: '/guests', per_page: 1, next_cursor: 'abc', prev_cursor: null },
      ctx,
    );
    expect(paged({}).map(cursor).page.nextCursor).toBe('abc');
  });
});
