import type { I18n } from '../../i18n/index.ts';
import { normalizeEmail } from '../domain/email.ts';
import { normalizePhone } from '../domain/rules.ts';
import type { BookingRequest } from '../domain/schema.ts';

/**
 * The notes of a booking held under the online-requests record: who asked (as typed), that the
 * e-mail is on file, then the guest's own note, cut to the API's notes limit (`max`) with "…" so the
 * upstream never refuses the booking for a note the guest kept within the form's limit.
 */
export function onFileNotes(i18n: I18n, input: BookingRequest, max: number): string {
  const who = i18n.t('booking.hotelNote.onFile', {
    name: `${input.firstName.trim()} ${input.lastName.trim()}`,
    email: normalizeEmail(input.email),
    phone: normalizePhone(input.phone) || '–',
    country: input.nationality || '–',
  });
  const own = input.notes.trim();
  const full = own ? `${who}\n${i18n.t('booking.hotelNote.guestNotes', { notes: own })}` : who;
  return full.length <= max ? full : `${full.slice(0, max - 1)}…`;
}
