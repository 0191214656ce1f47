import { formatPrice, stayDate } from '../../i18n/format.ts';
import { nightsBetween } from '../domain/dates.ts';
import type { RoomSay } from './room-facts.ts';
import type { StatusKind } from '../domain/status.ts';

/** The rows of the review before booking and of the stay once booked (steps, manage page, mail). */
export type SummaryRows = [term: string, value: string][];

const guests = (say: RoomSay, adults: number, children: number): string =>
  `${say('adults', { count: adults })}, ${say('children', { count: children })}`;

const money = (amount: number | null, currency: string, locale: string): string | null =>
  amount === null ? null : formatPrice(amount, currency, locale);

/** Rows whose value is empty are left out (an optional field not given). */
const rows = (list: [string, string | null | undefined][]): SummaryRows =>
  list.filter((row): row is [string, string] => Boolean(row[1]));

/** What the guest is about to book, with the details as typed. */
export interface ReviewFacts {
  place: string;
  room: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  children: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** The country's name in the guest's language. */
  country: string;
  notes: string;
  total: number | null;
  currency: string;
}

export function reviewRows(facts: ReviewFacts, say: RoomSay, locale: string): SummaryRows {
  return rows([
    [say('place'), facts.place],
    [say('room'), facts.room],
    [say('checkIn'), stayDate(facts.checkIn, locale)],
    [say('checkOut'), stayDate(facts.checkOut, locale)],
    [say('nightsLabel'), String(nightsBetween(facts.checkIn, facts.checkOut))],
    [say('guestsLabel'), guests(say, facts.adults, facts.children)],
    [say('name'), `${facts.firstName} ${facts.lastName}`],
    [say('email'), facts.email],
    [say('phone'), facts.phone],
    [say('nationality'), facts.country],
    [say('notes'), facts.notes.trim()],
    [say('total'), money(facts.total, facts.currency, locale)],
  ]);
}

/** A booked stay, as the confirmation and the manage page show it. */
export interface StayFacts {
  reference: string;
  /** The lodging API's own word, shown when it means nothing known (`other`). */
  status: string;
  kind: StatusKind;
  place: string;
  address: string;
  room: string;
  checkIn: string;
  checkOut: string;
  checkInTime?: string | undefined;
  checkOutTime?: string | undefined;
  nights: number;
  adults: number;
  children: number;
  total: number | null;
  currency: string;
}

/** Heading, text and status words per status kind (`widget.*` keys without the prefix). */
export const STATUS_TEXT = {
  received: { heading: 'doneReceived', text: 'doneReceivedText', status: 'statusReceived' },
  confirmed: { heading: 'doneConfirmed', text: 'doneConfirmedText', status: 'statusConfirmed' },
  cancelled: { heading: 'doneCancelled', text: 'doneCancelledText', status: 'statusCancelled' },
  other: { heading: 'doneOther', text: 'doneOtherText', status: null },
} as const satisfies Record<StatusKind, { heading: string; text: string; status: string | null }>;

export function stayRows(stay: StayFacts, say: RoomSay, locale: string): SummaryRows {
  const status = STATUS_TEXT[stay.kind].status;
  const at = (time: string | undefined, key: string) => (time ? ` · ${say(key, { time })}` : '');
  return rows([
    [say('reference'), stay.reference],
    [say('status'), status ? say(status) : stay.status],
    [say('place'), stay.place],
    [say('address'), stay.address],
    [say('room'), stay.room],
    [say('checkIn'), stayDate(stay.checkIn, locale) + at(stay.checkInTime, 'timeFrom')],
    [say('checkOut'), stayDate(stay.checkOut, locale) + at(stay.checkOutTime, 'timeUntil')],
    [say('nightsLabel'), String(stay.nights)],
    [say('guestsLabel'), guests(say, stay.adults, stay.children)],
    [say('total'), money(stay.total, stay.currency, locale)],
  ]);
}
