import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from '../../../src/lib/booking/domain/countries.ts';
import {
  detailsErrors,
  guestErrors,
  normalizePhone,
} from '../../../src/lib/booking/domain/rules.ts';
import { english } from '../../fixtures/english.ts';

const capacity = { maxAdults: 3, maxChildren: 2, maxOccupancy: 4 };
const inn = { name: 'Harbour Inn', capacity, roomTypes: [capacity] };

describe('guests', () => {
  it.each([
    [2, 0, {}],
    [1, 2, {}],
    [0, 0, { adults: ['At least one adult must stay.'] }],
    [Number.NaN, 0, { adults: ['At least one adult must stay.'] }],
    [4, 0, { adults: ['Rooms at Harbour Inn take at most 3 adults.'] }],
    [2, 3, { children: ['Rooms at Harbour Inn take at most 2 children.'] }],
    [2, -1, { children: ['Enter 0 or more children.'] }],
    // A crafted fraction is told it must be whole, not "0 or more" or "at least one".
    [2, 1.5, { children: ['Enter a whole number of children.'] }],
    [1.5, 0, { adults: ['Enter a whole number of adults.'] }],
    [3, 2, { children: ['Rooms at Harbour Inn sleep at most 4 guests.'] }],
    [1, 0, {}],
  ])('%d adults, %d children → %j', (adults, children, expected) => {
    expect(english(guestErrors(adults, children, inn))).toEqual(expected);
  });
});

describe('a party within the place’s limits that no one room takes', () => {
  // The most adults sleep in one room, the children only in another.
  const family = { maxAdults: 2, maxChildren: 2, maxOccupancy: 4 };
  const quad = { maxAdults: 4, maxChildren: 0, maxOccupancy: 4 };
  const place = { name: 'Inn', capacity: { ...quad, maxChildren: 2 }, roomTypes: [family, quad] };
  const noRoom = [
    'No single room at Inn takes this party. Book one room for part of it, then a second for the rest.',
  ];

  it.each([
    [2, 2, {}],
    [4, 0, {}],
    [3, 1, { children: noRoom }],
  ])('%d adults, %d children → %j', (adults, children, expected) => {
    expect(english(guestErrors(adults, children, place))).toEqual(expected);
  });
});

describe('guest details', () => {
  const valid = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 (20) 7946-0958',
    nationality: 'GB',
    notes: '',
  };

  it('accepts a complete guest, phone with spaces and brackets', () => {
    expect(english(detailsErrors(valid))).toEqual({});
  });

  it.each([
    ['+44 (20) 7946-0958', '+442079460958'],
    // The trunk zero in brackets is not dialled from abroad: the hotel could not call back.
    ['+44 (0)20 7946 0958', '+442079460958'],
    ['+49 (0) 30 123.45.67', '+49301234567'],
    ['+41 33 555 01 23', '+41335550123'],
  ])('the phone %s is sent as %s', (typed, sent) => {
    expect(detailsErrors({ ...valid, phone: typed })).toEqual({});
    expect(normalizePhone(typed)).toBe(sent);
  });

  it('accepts names in any script, with emoji or a joiner inside them', () => {
    for (const [firstName, lastName] of [
      ['Zoë 🌊', 'Ørsted'],
      ['क्‍ष', 'नाम'],
      ['李', '小龙'],
    ] as const)
      expect(detailsErrors({ ...valid, firstName, lastName })).toEqual({});
  });

  it('a required note of blanks only is missing', () => {
    const rules = { notes: { required: true } };
    expect(Object.keys(detailsErrors({ ...valid, notes: ' \u200b\n' }, rules))).toEqual(['notes']);
  });

  it.each([
    [{ firstName: ' ' }, 'firstName'],
    [{ lastName: '' }, 'lastName'],
    // Pasted blanks that trim() keeps: zero-width space, word joiner, a direction mark.
    [{ firstName: '\u200b' }, 'firstName'],
    [{ lastName: '\u00a0\u2060\u200e ' }, 'lastName'],
    [{ email: 'ada@example' }, 'email'],
    [{ email: 'ada example.com' }, 'email'],
    [{ phone: '020 7946 0958' }, 'phone'],
    [{ phone: '+0123456789' }, 'phone'],
    [{ nationality: 'UK' }, 'nationality'],
    [{ notes: 'x'.repeat(1001) }, 'notes'],
  ])('%j is refused on %s', (change, field) => {
    expect(Object.keys(detailsErrors({ ...valid, ...change }))).toEqual([field]);
  });

  it('lists every ISO 3166-1 alpha-2 country once', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect(isCountryCode('CH')).toBe(true);
    expect(isCountryCode('EU')).toBe(false);
  });
});

describe('capacity refusals count in the language’s plural rules', () => {
  it.each([
    [{ maxAdults: 1, maxChildren: 1, maxOccupancy: 2 }, 2, 0, 'at most 1 adult.'],
    [{ maxAdults: 2, maxChildren: 1, maxOccupancy: 3 }, 1, 2, 'at most 1 child.'],
    [{ maxAdults: 1, maxChildren: 0, maxOccupancy: 1 }, 1, 0, ''],
  ])('%j with %d adults, %d children', (capacity, adults, children, said) => {
    const text = Object.values(
      english(guestErrors(adults, children, { name: 'Inn', capacity, roomTypes: [capacity] })),
    ).flat();
    if (said) expect(text.join(' ')).toContain(said);
    else expect(text).toEqual([]);
  });
});
