import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { widgetSay } from '../../../src/lib/i18n/widget.ts';
import { manageView } from '../../../src/lib/booking/manage/view.ts';
import { summaryRows } from '../../../src/lib/booking/steps/summary-rows.ts';
import type { ManagedStay } from '../../../src/lib/booking/manage/stay.ts';
import type { PropertySummary } from '../../../src/lib/booking/service/lodging-shapes.ts';

const english = createI18n('en-GB', 'UTC');
const en = widgetSay(english);
const german = createI18n('de-CH', 'UTC');

const property: PropertySummary = {
  id: 'lodge',
  name: 'Edelweiss Lodge',
  currency: 'CHF',
  city: 'Bergheim',
  address: 'Dorfstrasse 41',
  checkInTime: '15:00',
  roomTypes: [],
  capacity: { maxAdults: 2, maxChildren: 2, maxOccupancy: 4 },
};
const stay: ManagedStay = {
  reference: 'BK-ABC123',
  status: 'pending',
  statusKind: 'received',
  property,
  propertyId: 'lodge',
  propertyName: 'Edelweiss Lodge',
  roomTypeId: 'double',
  roomName: 'Alpine Double',
  checkIn: '2099-03-28',
  checkOut: '2099-03-30',
  nights: 2,
  adults: 2,
  children: 1,
  totalPrice: 378,
  nightly: null,
  averageNightly: 189,
  currency: 'CHF',
};
const stayRows = (shown: typeof stay, i18n = english) => manageView(shown, i18n).rows;

describe('the summaries every interface shows', () => {
  it('a booked stay, in the tenant’s language, with status words and times', () => {
    expect(Object.fromEntries(stayRows(stay, german))).toMatchObject({
      Buchungsnummer: 'BK-ABC123',
      Unterkunft: 'Edelweiss Lodge',
      Zimmer: 'Alpine Double',
      Gäste: '2 Erwachsene, 1 Kind',
    });
    const rows = Object.fromEntries(stayRows(stay));
    expect(rows['Status']).toBe('Requested: the hotel will confirm');
    expect(rows['Check-in']).toMatch(/28 March 2099 · from 15:00/);
    expect(rows['Total']).toContain('378.00');
  });

  it('leaves out what is not known: no total, no address, an unknown status as the API says it', () => {
    const rows = stayRows({
      ...stay,
      statusKind: 'other',
      status: 'on_request',
      totalPrice: null,
      property: { ...property, address: '', city: null },
    });
    const terms = rows.map(([term]) => term);
    expect(terms).not.toContain('Total');
    expect(terms).not.toContain('Address');
    expect(Object.fromEntries(rows)['Status']).toBe('on_request');
  });

  it('the review shows optional details only when given', () => {
    const facts = {
      place: 'Harbour View Hotel',
      room: 'Standard Double',
      checkIn: '2099-03-28',
      checkOut: '2099-03-31',
      nights: 3,
      adults: 2,
      children: 0,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '',
      country: '',
      notes: '  ',
      total: 357,
      currency: 'EUR',
    };
    const rows = Object.fromEntries(summaryRows(facts, en, 'en-GB'));
    expect(rows).toMatchObject({
      Name: 'Ada Lovelace',
      Nights: '3',
      Guests: '2 adults, 0 children',
    });
    expect(Object.keys(rows)).not.toEqual(expect.arrayContaining(['Phone']));
    expect(Object.keys(rows)).not.toContain('Notes');
  });
});
