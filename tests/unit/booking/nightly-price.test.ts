import { describe, expect, it } from 'vitest';
import { nightlyPrice } from '../../../src/components/booking/format.ts';

describe('nightlyPrice: what a room card shows per night', () => {
  it.each([
    // One flat rate (default dialect): the API's price per night.
    ['flat rate, no list', { pricePerNight: 119, nightly: null, averageNightly: 119 }, 119, false],
    [
      'every night the same',
      { pricePerNight: 119.5, nightly: [119.5, 119.5], averageNightly: 119.5 },
      119.5,
      false,
    ],
    [
      'one night',
      { pricePerNight: 137.43, nightly: [137.43], averageNightly: 137.43 },
      137.43,
      false,
    ],
    // Weekend rates (alt dialect, Thu–Sun): no night costs the average, so it is called one.
    [
      'weekend rates',
      { pricePerNight: 131.45, nightly: [119.5, 137.43, 137.43], averageNightly: 131.45 },
      131.45,
      true,
    ],
  ])('%s', (_, room, amount, average) => {
    expect(nightlyPrice(room)).toEqual({ amount, average });
  });
});
