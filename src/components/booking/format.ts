import type { RoomOffer } from '../../lib/booking/types.ts';

/** Visitor-locale formatting for the widget; dates are date-only, formatted on the UTC calendar. */

export function money(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

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

export function longDate(date: string, locale: string): string {
  const instant = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(instant.getTime())) return date;
  try {
    return new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(instant);
  } catch {
    return date;
  }
}

export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
