import { describe, expect, it } from 'vitest';
import { createI18n, type MessageKey } from '../../../src/lib/i18n/index.ts';
import type { Say } from '../../../src/lib/i18n/say.ts';
import { capacityText, roomFacts } from '../../../src/lib/booking/steps/room-facts.ts';
import type { RoomOffer } from '../../../src/lib/booking/service/lodging-shapes.ts';

const sayIn = (locale: string): Say => {
  const { t } = createI18n(locale, 'UTC');
  return (key, values) => t(`widget.${key}` as MessageKey, values);
};
const en = sayIn('en-GB');

// The demo hotel's rooms (mock/seed/accounts.ts).
const double = { maxAdults: 2, maxChildren: 1, maxOccupancy: 3 };
const suite = { maxAdults: 4, maxChildren: 4, maxOccupancy: 4 };
const cabin = { maxAdults: 1, maxChildren: 0, maxOccupancy: 1 };

const offer = (limits: typeof double, more: Partial<RoomOffer> = {}): RoomOffer => ({
  roomTypeId: 'r',
  name: 'Room',
  description: '',
  ...limits,
  available: true,
  availableRooms: 5,
  pricePerNight: 119,
  nightly: null,
  averageNightly: 119,
  totalPrice: 238,
  currency: 'EUR',
  ...more,
});

describe('what a room card shows per night', () => {
  it.each([
    // One flat rate (default dialect): the API's price per night.
    ['flat rate', { pricePerNight: 119, averageNightly: 119 }, '€119.00 per night'],
    // Weekend rates (alt dialect, Thu–Sun), or a total alone: no one rate, so the average, called one.
    [
      'no one rate',
      { pricePerNight: null, averageNightly: 131.45 },
      '€131.45 per night on average',
    ],
  ])('%s', (_, prices, text) => {
    const party = { adults: 2, children: 0 };
    expect(roomFacts(offer(suite, prices), party, en, 'en-GB').perNight).toBe(text);
  });
});

describe('capacity in the words of the rules', () => {
  it.each([
    // "Sleeps 3" would promise a bed to the third adult that booking then refuses.
    ['a double for 2 adults and a child', double, 'Sleeps 3, at most 2 adults'],
    ['a room any party fits', suite, 'Sleeps 4'],
    ['a single without children', cabin, 'Sleeps 1 adult, no children'],
  ])('%s', (_, limits, text) => {
    expect(capacityText(limits, en)).toBe(text);
  });

  it('speaks the tenant’s language', () => {
    expect(capacityText(double, sayIn('de-CH'))).toBe('Für 3 Personen, höchstens 2 Erwachsene');
  });
});

describe('a room card’s facts', () => {
  it('a free room: capacity, price per night, total, and few left', () => {
    expect(
      roomFacts(offer(double, { availableRooms: 2 }), { adults: 2, children: 0 }, en, 'en-GB'),
    ).toEqual({
      capacity: 'Sleeps 3, at most 2 adults',
      perNight: '€119.00 per night',
      total: '€238.00 total',
      left: 'only 2 left',
    });
  });

  it.each([
    ['three adults in the double', double, 3, 0, 'For up to 2 adults'],
    ['a party larger than the room', double, 2, 2, 'Sleeps 3: you are 4'],
    ['a child in the cabin', { ...cabin, maxOccupancy: 2 }, 1, 1, 'Not for children'],
    ['two children in the double', double, 1, 2, 'For 1 child at most'],
    ['two adults in a room for one', { ...double, maxAdults: 1 }, 2, 0, 'For 1 adult at most'],
  ])('says why it cannot be chosen: %s', (_, limits, adults, children, why) => {
    const facts = roomFacts(offer(limits, { available: false }), { adults, children }, en, 'en');
    expect(facts.why).toBe(why);
    expect(facts.perNight).toBeUndefined();
  });

  it('a room that fits but is taken says so, with its capacity', () => {
    const facts = roomFacts(
      offer(suite, { available: false }),
      { adults: 2, children: 0 },
      en,
      'en',
    );
    expect(facts).toEqual({ capacity: 'Sleeps 4', why: 'Sold out for these dates' });
  });
});

describe('“for up to N” in the plural rules of each language', () => {
  it.each([
    ['de-CH', 1, 'Für höchstens 1 Kind'],
    ['de-CH', 2, 'Für höchstens 2 Kinder'],
    ['fr-FR', 1, 'Pour 1 enfant au plus'],
    ['fr-FR', 0, 'Pour 0 enfant au plus'],
    ['fr-FR', 3, 'Pour 3 enfants au plus'],
  ])('%s, %d children', (locale, max, said) => {
    const limits = { maxAdults: 4, maxChildren: max, maxOccupancy: 8 };
    const facts = roomFacts(
      offer(limits, { available: false }),
      { adults: 1, children: 4 },
      sayIn(locale),
      locale,
    );
    expect(facts.why).toBe(max === 0 ? sayIn(locale)('noChildren') : said);
  });
});
