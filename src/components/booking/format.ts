import type { RoomOffer } from '../../lib/booking/types.ts';

/** Visitor-locale formatting for the widget; dates are date-only, formatted on the UTC calendar. */

// One money and one stay-date formatter for the widget and the server's pages (src/lib owns them).
export { formatPrice as money, stayDate as longDate } from '../../lib/i18n/format.ts';

/**
 * A room's price per night: its rate when every night costs the same, else the average, labelled so
 * (with weekend rates, or a total alone, no night is known to cost `total / nights`).
 */
export function nightlyPrice(room: Pick<RoomOffer, 'pricePerNight' | 'averageNightly'>): {
  amount: number;
  average: boolean;
} {
  return room.pricePerNight === null
    ? { amount: room.averageNightly, average: true }
    : { amount: room.pricePerNight, average: false };
}

export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
