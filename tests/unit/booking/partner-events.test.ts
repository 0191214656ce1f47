import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookedFacts, searchFacts } from '../../../src/lib/booking/steps/partner-events.ts';
import { confirmation, offers, PROPERTY } from '../../fixtures/booking.ts';

/** The fields docs/booking-partners.md promises partners, in its order. */
const docs = readFileSync(new URL('../../../docs/booking-partners.md', import.meta.url), 'utf8');
const names = (text: string) => [...text.matchAll(/`(\w+)`/g)].map((match) => match[1]);
const searchRow = docs.split('\n').find((line) => line.startsWith('| `masthead:search`')) ?? '';
const documentedSearch = names(searchRow.split('|')[3] ?? '');
const bookingText = docs.slice(docs.indexOf('`booking` holds '), docs.indexOf('; `value` is'));
const documentedBooking = names(bookingText.slice('`booking`'.length));

describe('what a partner page hears', () => {
  it('hears the search as documented, without its rooms', () => {
    const facts = searchFacts(offers);
    expect(documentedSearch).toHaveLength(6);
    expect(Object.keys(facts)).toEqual(documentedSearch);
    expect(facts).toMatchObject({ propertyId: PROPERTY, checkIn: '2099-03-28', nights: 2 });
  });

  it('hears the booking as documented, never what the endpoint adds for the guest alone', () => {
    const answered = {
      ...confirmation,
      manageUrl: 'https://x.test/stay/manage/secret',
      mailed: true,
    };
    const facts = bookedFacts(answered);
    expect(documentedBooking).toHaveLength(8);
    expect(Object.keys(facts)).toEqual(documentedBooking);
    expect(facts).toMatchObject({ reference: 'BK-ABC123', totalPrice: 200, currency: 'EUR' });
  });

  it('passes a missing total on as null', () => {
    expect(bookedFacts({ ...confirmation, totalPrice: null }).totalPrice).toBeNull();
  });
});
