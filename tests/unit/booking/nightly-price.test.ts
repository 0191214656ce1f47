import { describe, expect, it } from 'vitest';
import { nightlyPrice } from '../../../src/components/booking/format.ts';

describe('nightlyPrice: what a room card shows per night', () => {
  it.each([
    // One flat rate (default dialect): the API's price per night.
    ['flat rate', { pricePerNight: 119, averageNightly: 119 }, 119, false],
    // Weekend rates (alt dialect, Thu–Sun), or a total alone: no one rate, so the average, called one.
    ['no one rate', { pricePerNight: null, averageNightly: 131.45 }, 131.45, true],
  ])('%s', (_, room, amount, average) => {
    expect(nightlyPrice(room)).toEqual({ amount, average });
  });
});
