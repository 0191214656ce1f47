import type { BookingContact } from './types.ts';

/** The tenant's contact as one line: `+44 20 7946 0000 · rooms@example.com`, or '' when none is set. */
export function contactLine(contact: BookingContact | undefined): string {
  return [contact?.phone, contact?.email, contact?.url].filter(Boolean).join(' · ');
}
