import type { BookingStatus, LodgingData } from '../lodging/model.ts';
import { price } from '../lodging/rules.ts';
import { propertyId } from './accounts.ts';

/** Integer cents to a decimal string. */
const decimal = (cents: number) => (cents / 100).toFixed(2);

/** Default statuses → the alt dialect's words, alternating so every alt word is seeded. */
const ALT_WORDS: Partial<Record<BookingStatus, readonly BookingStatus[]>> = {
  pending: ['tentative', 'requested'],
  confirmed: ['confirmed', 'booked'],
  cancelled: ['canceled'],
};

/**
 * The alt dialect's data, derived from the default seed so ids, tokens, guests and dates stay the
 * same: Harbour View Hotel charges GBP, rates have a weekend surcharge, every guest has a phone
 * (the alt API requires one) and statuses use the alt words.
 */
export function toAltDialect(data: LodgingData): void {
  const gbp = propertyId('harbour-hotels', 0);
  for (const p of data.properties) {
    if (p.id === gbp) Object.assign(p, { currency: 'GBP', country: 'GB', postcode: 'PH1 4QD' });
    for (const rt of p.roomTypes) {
      // Prices end in .50; Friday and Saturday nights cost 15 % more (half-cents round up).
      const base = Math.round(Number(rt.basePrice) * 100) + 50;
      rt.basePrice = decimal(base);
      rt.weekendPrice = decimal(Math.round((base * 115) / 100));
    }
  }
  data.guests.forEach((g, i) => {
    g.phone ??= `+44 20 7946 ${String(1000 + i).padStart(4, '0')}`;
  });
  const used: Partial<Record<BookingStatus, number>> = {};
  for (const b of data.bookings) {
    const words = ALT_WORDS[b.status];
    if (words) {
      const n = (used[b.status] = (used[b.status] ?? 0) + 1);
      b.status = words[(n - 1) % words.length] ?? b.status;
    }
    const p = data.properties.find((x) => x.id === b.propertyId);
    const rt = p?.roomTypes.find((r) => r.id === b.roomTypeId);
    if (p && rt) {
      b.totalPrice = price(rt, b.checkIn, b.checkOut);
      b.currency = p.currency;
    }
  }
}
