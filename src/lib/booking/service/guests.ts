import type { LodgingClient } from '../../lodging/client.ts';
import type { Guest, GuestInput } from '../../lodging/schema.ts';
import { classify } from '../../failures/classify.ts';
import { i18nFor, type I18n } from '../../i18n/index.ts';
import type { BookingTenant } from '../../tenants/booking.ts';
import { normalizeEmail } from '../domain/email.ts';
import { normalizePhone } from '../domain/rules.ts';
import type { BookingRequest } from '../domain/schema.ts';
import { guestInput } from './lodging-shapes.ts';

/** Pages read per search before giving up (50 guests a page). */
const MAX_PAGES = 10;

/** The guest with exactly this e-mail (after normalizing both) among the results of `search`. */
export async function findByEmail(
  api: LodgingClient,
  search: string,
  email: string,
): Promise<Guest | undefined> {
  let page: number | undefined = 1;
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n += 1) {
    const result = await api.listGuests(
      { search, perPage: 50, ...(cursor ? { cursor } : { page }) },
      { fresh: true },
    );
    const guest = result.items.find((g) => normalizeEmail(g.email ?? '') === email);
    if (guest) return guest;
    if (result.items.length === 0) return undefined;
    if (result.page.nextCursor) cursor = result.page.nextCursor;
    else if (!cursor && result.page.current < result.page.last) page = result.page.current + 1;
    else return undefined;
  }
  return undefined;
}

/** "The email has already been taken" (or the like) on `email`: the record exists upstream. */
function emailTaken(error: unknown): boolean {
  const failure = classify(error);
  return (
    failure.kind === 'invalid' &&
    (failure.fields['email'] ?? []).some((m) => /taken|exists|already|unique/i.test(m))
  );
}

/** Finds the online-requests record, else creates it (on upstreams whose search misses e-mails too). */
async function onlineRequestsGuest(api: LodgingClient, holder: GuestInput): Promise<string> {
  const found = await findByEmail(api, holder.email, holder.email);
  if (found) return String(found.id);
  try {
    return String((await api.createGuest(holder)).id);
  } catch (error) {
    if (!emailTaken(error)) throw error;
    for (const search of [holder.last_name, `${holder.first_name} ${holder.last_name}`]) {
      const again = await findByEmail(api, search, holder.email);
      if (again) return String(again.id);
    }
    throw error;
  }
}

/**
 * The record that holds online requests for e-mails on file (`email`), until the hotel moves
 * them; found or made once per process. Its phone, for upstreams that require one: the hotel's
 * own number, else the first requester's.
 */
export function onlineRequestsRecord(
  tenant: BookingTenant,
  email: string,
  api: () => LodgingClient,
) {
  let holder: Promise<string> | undefined;
  return (requesterPhone: string): Promise<string> => {
    const { t } = i18nFor(tenant);
    const phone = normalizePhone(tenant.lodging.contact?.phone ?? '') || requesterPhone;
    holder ??= onlineRequestsGuest(api(), {
      first_name: t('booking.onlineRequests.firstName'),
      last_name: t('booking.onlineRequests.lastName'),
      email,
      ...(phone ? { phone } : {}),
    }).catch((error: unknown) => {
      holder = undefined;
      throw error;
    });
    return holder;
  };
}

/**
 * A new e-mail gets a guest record of its own (`new`). One already on file is never attached (a
 * stranger may know a guest's name and address; see `docs/api-assumptions.md`): the booking goes
 * under the online-requests record (`on-file`), its details in the notes, for the hotel to move.
 */
export async function chooseGuest(
  api: LodgingClient,
  input: BookingRequest,
  onlineRequests: (requesterPhone: string) => Promise<string>,
  /** The look-up of this e-mail, when the caller just made it. */
  looked?: { guest: Guest | undefined },
): Promise<{ kind: 'new' | 'on-file'; guestId: string }> {
  const email = normalizeEmail(input.email);
  const existing = looked ? looked.guest : await findByEmail(api, email, email);
  const phone = normalizePhone(input.phone);
  if (existing) return { kind: 'on-file', guestId: await onlineRequests(phone) };
  try {
    const created = await api.createGuest(guestInput(input, email));
    return { kind: 'new', guestId: String(created.id) };
  } catch (error) {
    // On an upstream whose search misses e-mails, "taken" is how we learn it is on file.
    if (!emailTaken(error)) throw error;
    return { kind: 'on-file', guestId: await onlineRequests(phone) };
  }
}

/**
 * The address a booking under the online-requests record was made with: the first `<address>` in
 * its notes (the one `onFileNotes` writes after the name, before the guest's own note).
 */
export function notedEmail(notes: string | null | undefined): string | undefined {
  const named = /<([^<>\s]+@[^<>\s]+)>/.exec(notes ?? '')?.[1];
  return named ? normalizeEmail(named) : undefined;
}

/**
 * The notes of a booking held under the online-requests record: who asked (as typed), that the
 * e-mail is on file, then the guest's own note (cut to the API's limit by `markedNotes`).
 */
export function onFileNotes(i18n: I18n, input: BookingRequest): string {
  const who = i18n.t('booking.hotelNote.onFile', {
    // Without angle brackets: the `<address>` after the name is the only one (see `notedEmail`).
    name: `${input.firstName.trim()} ${input.lastName.trim()}`.replace(/[<>]/g, ''),
    email: normalizeEmail(input.email),
    phone: normalizePhone(input.phone) || '–',
    country: input.nationality || '–',
  });
  const own = input.notes.trim();
  return own ? `${who}\n${i18n.t('booking.hotelNote.guestNotes', { notes: own })}` : who;
}
