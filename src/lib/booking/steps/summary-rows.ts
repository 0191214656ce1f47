import { formatPrice, stayDate } from '../../i18n/format.ts';
import type { Say } from '../../i18n/say.ts';

/** The rows of the review before booking and of the stay once booked (steps, manage page, mail). */
export type SummaryRows = [term: string, value: string][];

/**
 * A stay as the review shows it (with the details as typed) or as the confirmation, manage page and
 * mail show it (with its reference and status): one row per fact given, always in this order.
 */
export interface SummaryFacts {
  reference?: string;
  /** The status in the guest's words. */
  status?: string;
  place: string;
  address?: string;
  room: string;
  checkIn: string;
  checkOut: string;
  checkInTime?: string | undefined;
  checkOutTime?: string | undefined;
  nights: number;
  adults: number;
  children: number;
  name?: string;
  email?: string;
  phone?: string;
  /** The country's name in the guest's language. */
  country?: string | undefined;
  notes?: string;
  total: number | null;
  currency: string;
}

export function summaryRows(facts: SummaryFacts, say: Say, locale: string): SummaryRows {
  const at = (time: string | undefined, key: string) => (time ? ` · ${say(key, { time })}` : '');
  const guests = `${say('adults', { count: facts.adults })}, ${say('children', { count: facts.children })}`;
  const total = facts.total === null ? null : formatPrice(facts.total, facts.currency, locale);
  const rows: [string, string | null | undefined][] = [
    [say('reference'), facts.reference],
    [say('status'), facts.status],
    [say('place'), facts.place],
    [say('address'), facts.address],
    [say('room'), facts.room],
    [say('checkIn'), stayDate(facts.checkIn, locale) + at(facts.checkInTime, 'timeFrom')],
    [say('checkOut'), stayDate(facts.checkOut, locale) + at(facts.checkOutTime, 'timeUntil')],
    [say('nightsLabel'), String(facts.nights)],
    [say('guestsLabel'), guests],
    [say('name'), facts.name],
    [say('email'), facts.email],
    [say('phone'), facts.phone],
    [say('nationality'), facts.country],
    [say('notes'), facts.notes?.trim()],
    [say('total'), total],
  ];
  // A fact not known or not given (an optional field left empty) has no row.
  return rows.filter((row): row is [string, string] => Boolean(row[1]));
}
