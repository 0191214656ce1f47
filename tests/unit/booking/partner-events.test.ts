import { describe, expect, it } from 'vitest';
import { bookedFacts, searchFacts } from '../../../src/lib/booking/partner-events.ts';
import { confirmation, offers, PROPERTY } from '../../fixtures/booking-store.ts';

describe('what a partner page hears', () => {
  it('hears the search without its rooms, in the documented order', () => {
    expect(JSON.stringify(searchFacts(offers))).toBe(
      JSON.stringify({
        propertyId: PROPERTY,
        checkIn: '2099-03-28',
        checkOut: '2099-03-30',
        nights: 2,
        adults: 2,
        children: 0,
      }),
    );
  });

  it('hears the booking, never what the endpoint adds for the guest alone', () => {
    const answered = {
      ...confirmation,
      manageUrl: 'https://x.test/stay/manage/secret',
      mailed: true,
    };
    expect(bookedFacts(answered)).toEqual({
      reference: 'BK-ABC123',
      propertyId: PROPERTY,
      roomTypeId: 'double',
      checkIn: '2099-03-28',
      checkOut: '2099-03-30',
      nights: 2,
      totalPrice: 200,
      currency: 'EUR',
    });
  });

  it('passes a missing total on as null', () => {
    expect(bookedFacts({ ...confirmation, totalPrice: null }).totalPrice).toBeNull();
  });
});
