import type { StatusKind } from '../domain/status.ts';

/**
 * An iCalendar (RFC 5545) file for one stay: an all-day event from check-in to check-out. Written
 * here, not with the `ics` package: one event's escaping and folding is shorter than that package's
 * options (and its yup dependency), and the calendar's STATUS and TRANSP follow the booking's.
 */

export interface StayEvent {
  /** Unique and stable: the same booking downloaded twice updates one calendar entry. */
  uid: string;
  title: string;
  checkIn: string;
  checkOut: string;
  location?: string | undefined;
  description?: string | undefined;
  url?: string | undefined;
  /** What the booking is now: a cancelled stay is `CANCELLED` in the guest's calendar too. */
  status?: StatusKind | undefined;
  /** When the file was made (DTSTAMP). */
  now?: Date;
}

/**
 * Backslash, semicolon, comma and line breaks (a lone CR too: some calendars split lines on it) are
 * escaped in TEXT values (RFC 5545 3.3.11).
 */
const text = (value: string): string =>
  value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n?|\n/g, '\\n');

/** Lines longer than 75 octets continue on the next line after a space (RFC 5545 3.1). */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    const limit = parts.length === 0 ? 75 : 74;
    if (Buffer.byteLength(current + char) > limit) {
      parts.push(current);
      current = char;
    } else current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const day = (iso: string): string => iso.replaceAll('-', '');

/** The event's STATUS (RFC 5545 3.8.1.11): a request is tentative until the hotel confirms it. */
const STATUS: Record<StatusKind, string | null> = {
  received: 'TENTATIVE',
  confirmed: 'CONFIRMED',
  cancelled: 'CANCELLED',
  other: null,
};

export function stayIcs(event: StayEvent): string {
  const stamp = (event.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Masthead//Booking//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${text(event.uid)}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${day(event.checkIn)}`,
    `DTEND;VALUE=DATE:${day(event.checkOut)}`,
    `SUMMARY:${text(event.title)}`,
    ...(event.location ? [`LOCATION:${text(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${text(event.description)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    ...(event.status && STATUS[event.status] ? [`STATUS:${STATUS[event.status]}`] : []),
    // A cancelled stay no longer blocks the guest's days.
    event.status === 'cancelled' ? 'TRANSP:TRANSPARENT' : 'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
