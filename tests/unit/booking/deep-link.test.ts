import { describe, expect, it } from 'vitest';
import { stayPrefill } from '../../../src/lib/booking/deep-link.ts';
import { plainFlow } from '../../../src/lib/booking/plain-steps.ts';
import { config, offers, PROPERTY } from '../../fixtures/booking-store.ts';

const place = config.properties[0]!;
const link = (values: Record<string, string>) => new URLSearchParams(values);

describe('deep links to a stay (campaigns, price comparison, the embed’s fallback link)', () => {
  it('prefills property, dates from nights, guests and a room of that property', () => {
    expect(
      stayPrefill(
        link({
          property: PROPERTY,
          checkIn: '2099-03-28',
          nights: '3',
          adults: '2',
          children: '1',
          room: 'double',
        }),
        [place],
      ),
    ).toEqual({
      propertyId: PROPERTY,
      checkIn: '2099-03-28',
      checkOut: '2099-03-31',
      adults: 2,
      children: 1,
      roomTypeId: 'double',
    });
  });

  it('drops what it cannot read, never fails: another hotel, a bad date, a room it does not have', () => {
    expect(
      stayPrefill(
        link({
          property: '2f7e65da-5ffa-5e37-b3a8-dd6d533190d1',
          checkIn: '2099-02-30',
          adults: 'two',
          room: 'suite',
        }),
        [place],
      ),
    ).toEqual({});
  });

  it('the plain forms read nights and room too', async () => {
    const state = await plainFlow(
      link({
        property: PROPERTY,
        checkIn: '2099-03-28',
        nights: '2',
        adults: '2',
        room: 'double',
        step: 'details',
      }),
      {
        rules: () => ({ today: '2099-01-01', minNights: 1, maxNights: 21 }),
        properties: () => Promise.resolve([place]),
        availability: () => Promise.resolve(offers),
      },
      PROPERTY,
    );
    expect(state.step).toBe('details');
    expect(state.values).toMatchObject({ checkOut: '2099-03-30', roomTypeId: 'double' });
  });
});
