import { describe, expect, it } from 'vitest';
import type { PropertySummary } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { availabilityResult } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { availabilitySchema } from '../../../src/lib/lodging/schema.ts';

const place: PropertySummary = {
  id: 'p1',
  name: 'Harbour View',
  currency: 'GBP',
  city: null,
  roomTypes: [
    {
      id: 'double',
      name: 'Double',
      description: '',
      maxAdults: 2,
      maxChildren: 1,
      maxOccupancy: 3,
    },
  ],
  capacity: { maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
};
const query = {
  property: 'p1',
  checkIn: '2027-07-01',
  checkOut: '2027-07-04',
  adults: 2,
  children: 0,
};

function offer(prices: Record<string, unknown>) {
  const api = availabilitySchema.parse({
    room_types: [{ room_type_id: 'double', available_rooms: 2, ...prices }],
  });
  const [room] = availabilityResult(place, query, api).value?.rooms ?? [];
  return (
    room && {
      pricePerNight: room.pricePerNight,
      average: room.averageNightly,
      total: room.totalPrice,
    }
  );
}

describe('what the lodging API says a night costs', () => {
  it('a flat rate: that rate, and the total as given', () => {
    expect(offer({ price_per_night: '119.00', total_price: '357.00' })).toEqual({
      pricePerNight: 119,
      average: 119,
      total: 357,
    });
  });

  it('nightly rates that differ: no one rate, the average of the API’s total', () => {
    expect(offer({ nightly_rates: ['119.50', '137.43', '137.43'], total_price: '394.36' })).toEqual(
      {
        pricePerNight: null,
        average: 131.45,
        total: 394.36,
      },
    );
  });

  it('nightly rates that are all equal: that rate', () => {
    expect(offer({ nightly_rates: ['100', '100', '100'] })).toMatchObject({
      pricePerNight: 100,
      total: 300,
    });
  });

  it('a total alone: no rate is known, only the average', () => {
    expect(offer({ total_price: '300' })).toEqual({
      pricePerNight: null,
      average: 100,
      total: 300,
    });
  });
});
