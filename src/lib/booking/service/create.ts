import { createHash } from 'node:crypto';
import type { LodgingClient } from '../../lodging/client.ts';
import type { Booking, BookingFilters, Guest } from '../../lodging/schema.ts';
import { classify } from '../../failures/classify.ts';
import {
  isOutage,
  NoRouteError,
  RateLimitedError,
  UpstreamError,
  UpstreamServerError,
} from '../../upstream/errors.ts';
import { LockTimeoutError } from '../../upstream/lock.ts';
import { RETRY_AFTER_SECONDS } from '../../delivery/policy.ts';
import { asBookingStep } from '../../upstream/visitor.ts';
import { readTextKey, textKey } from '../../i18n/text-key.ts';
import { i18nFor } from '../../i18n/index.ts';
import { stayErrors } from '../domain/dates.ts';
import { contactLine } from '../domain/contact.ts';
import { busy, invalid, refusal, toFailure, unavailable } from '../domain/failures.ts';
import { normalizeEmail } from '../domain/email.ts';
import {
  detailsErrors,
  detailsPresentation,
  fits,
  guestErrors,
  hasErrors,
} from '../domain/rules.ts';
import type { BookingRequest } from '../domain/schema.ts';
import { holdsRoom } from '../domain/status.ts';
import type { ServiceCore } from './core.ts';
import { chooseGuest, findByEmail, onFileNotes } from './guests.ts';
import { assertSameDetails, fingerprintOf, mailClaim, type Attempt } from './idempotency.ts';
import { confirmationOf, type Confirmation, type PropertySummary } from './lodging-shapes.ts';

/** Creating a booking: single-flight per stay, once per idempotency key, a lost answer found again. */

/** Pages of the guest's bookings read when looking for one whose answer was lost. */
export const MAX_BOOKING_PAGES = 5;

/**
 * How long other keys for a stay just booked are turned away unless the guest chose "book another
 * room": long enough for a second browser to fill in the form; it tells only the one who typed it.
 */
const JUST_BOOKED_SECONDS = 10 * 60;

/**
 * The line that records an idempotency key in the booking it made (last line of its notes, a hash:
 * the key itself never leaves the site), so a replay finds it after the shared store forgot.
 */
export function keyMark(tenantId: string, key: string): string {
  const hash = createHash('sha256').update(`${tenantId}\0${key}`).digest('base64url');
  return `[ref ${hash.slice(0, 16)}]`;
}

/**
 * `notes` (cut with "…" to leave room) and then the key's mark, within `max` characters (the API's
 * notes limit: the upstream never refuses a booking for a note kept within the form's limit).
 */
export function markedNotes(notes: string, mark: string, max: number): string {
  if (!notes) return mark;
  const room = max - mark.length - 1;
  const kept = notes.length <= room ? notes : `${notes.slice(0, Math.max(0, room - 1))}…`;
  return `${kept}\n${mark}`;
}

/**
 * How long a create whose answer was lost may still be stored by the lodging API (a request it is
 * still working on when the site stopped waiting: a gateway gives up on it after about a minute).
 * Until then a retry with the same key only looks for it, and books only once it has settled.
 */
export const SETTLE_SECONDS = 90;

/**
 * The create's answer was lost: the booking may have been made, or may still be. Said so, with
 * Try again that looks for it first (never a second booking), and when it books if it is not there.
 */
const outcomeUnknownFailure = (wait: number) =>
  unavailable(textKey('booking.error.outcomeUnknown', { wait }), wait);

/** Whether `error` says the create's answer was lost (the page links to finding the booking). */
export const isOutcomeUnknown = ({ message }: Error) =>
  readTextKey(message)?.key === 'booking.error.outcomeUnknown';

/**
 * A 5xx of the lodging API itself: a Laravel API answers one when the request failed, and once it
 * answered the request is over (nothing it stores later). Not a gateway's 504 or Cloudflare's 524:
 * those stopped waiting for the API, which may still be storing it.
 */
const answered = (error: unknown): boolean =>
  error instanceof UpstreamServerError && error.status !== 504 && error.status !== 524;

/** A write whose answer never arrived, or arrived unreadable: it may have been stored. */
const outcomeUnknown = (error: unknown): boolean =>
  isOutage(error) && !(error instanceof RateLimitedError) && !(error instanceof NoRouteError);

/** The first booking `filters` list (fresh, up to `MAX_BOOKING_PAGES` pages) that `match` accepts. */
export async function listedBooking(
  api: LodgingClient,
  filters: Omit<BookingFilters, 'page' | 'perPage'>,
  match: (booking: Booking) => boolean,
): Promise<Booking | undefined> {
  for (let page = 1; page <= MAX_BOOKING_PAGES; page += 1) {
    const list = await api.listBookings({ ...filters, page, perPage: 50 }, { fresh: true });
    const found = list.items.find(match);
    if (found || list.page.current >= list.page.last || list.items.length === 0) return found;
  }
  return undefined;
}

/**
 * The booking a create whose answer was lost may have stored: under `guestId`, for exactly these
 * nights and room, with the key's mark in its notes (`keyMark`), still holding the room.
 */
function lostBooking(
  api: LodgingClient,
  guestId: string,
  mark: string,
  place: PropertySummary,
  input: BookingRequest,
): Promise<Booking | undefined> {
  const day = input.checkIn;
  return listedBooking(
    api,
    { guest_id: guestId, property_id: place.id, check_in_from: day, check_in_to: day },
    (b) =>
      b.check_in === input.checkIn &&
      b.check_out === input.checkOut &&
      (b.guest_id == null || String(b.guest_id) === guestId) &&
      (b.room_type_id == null || String(b.room_type_id) === input.roomTypeId) &&
      (b.notes ?? '').includes(mark) &&
      holdsRoom(b.status),
  );
}

/** The guest record and notes this attempt books with (the same again after a lost answer). */
async function recipient(
  core: ServiceCore,
  api: LodgingClient,
  input: BookingRequest,
  attempt: Attempt | undefined,
  mark: string,
  looked?: { guest: Guest | undefined },
): Promise<{ guestId: string; notes?: string | undefined }> {
  if (attempt?.state === 'unknown' && attempt.guestId) {
    return { guestId: attempt.guestId, notes: attempt.notes };
  }
  const choice = await chooseGuest(api, input, core.onlineRequests, looked);
  const max = detailsPresentation(core.lodging.fields).notesMax;
  const notes =
    choice.kind === 'new' ? input.notes.trim() : onFileNotes(i18nFor(core.tenant), input);
  return { guestId: choice.guestId, notes: markedNotes(notes, mark, max) };
}

/**
 * The same stay booked moments ago with another key (another tab, a second click after a reload):
 * where its confirmation is, and whom to ask (the tenant's contact, when it gives one). Never a
 * success, no e-mail promised (that one may not have been sent), and no "try again" (that would
 * book it twice): only the explicit "book another room for the same dates" books it once more.
 */
function justBooked(core: ServiceCore) {
  const contact = contactLine(core.lodging.contact);
  const message = contact
    ? textKey('booking.error.justBookedContact', { contact })
    : textKey('booking.error.justBooked');
  return refusal(409, 'same_stay', message);
}

/** The same, while the stay's create moments ago lost its answer: it may have been booked. */
const maybeBooked = () => refusal(409, 'same_stay', textKey('booking.error.maybeBooked'));

/** A stay's mark while a create of it lost its answer (`markBooked` under another name). */
const lostStay = (stay: string) => `lost:${stay}`;

/** One attempt at creating `input` (with the fingerprint of its details and the stay's key). */
interface Creation {
  place: PropertySummary;
  input: BookingRequest;
  fingerprint: string;
  /** The stay by e-mail address, and by browser when known: a booking marks each. */
  stayKeys: string[];
  anotherRoom: boolean;
}

/** Runs inside the creation lock: the lost-answer check and the create cannot interleave. */
async function createOnce(core: ServiceCore, creation: Creation): Promise<Confirmation> {
  const { place, input, fingerprint, stayKeys, anotherRoom } = creation;
  const { attempts } = core;
  const key = input.idempotencyKey;
  const attempt = await attempts.get(key);
  assertSameDetails(attempt, fingerprint);
  if (attempt?.state === 'done') return attempt.confirmation;
  // Racing submits of one stay with other keys (two tabs, a second browser, a script): the first
  // books, the rest are turned away here, before any upstream call, and a key once turned away
  // stays so (pressing "Book" again later never books it): only `anotherRoom` goes on. For a
  // while only, so it tells no one much later that a stay exists; after it a new key is new.
  // A stay whose create lost its answer moments ago is turned away alike (it may be stored yet),
  // except by that key, which looks for it first; and after a 5xx the API answered (no `lostAt`:
  // nothing to settle) that key too is turned away once another key booked the stay.
  const unknown = attempt?.state === 'unknown';
  if (!anotherRoom && !(unknown && attempt.lostAt)) {
    const marked = (name: (stay: string) => string) =>
      Promise.all(stayKeys.map((stay) => attempts.justBooked(name(stay)))).then((all) =>
        all.includes(true),
      );
    const [booked, lost] = await Promise.all([
      marked((stay) => stay),
      !unknown && marked(lostStay),
    ]);
    const turnedAway = attempt?.state === 'same-stay';
    if (turnedAway || booked || lost) {
      if (!turnedAway) await attempts.set(key, { fingerprint, state: 'same-stay' });
      throw lost && !booked ? maybeBooked() : justBooked(core);
    }
  }
  /** The key's booking, made here or found again (`mailed`: its e-mail is not sent again). */
  const done = async (booking: Booking, mailed: boolean): Promise<Confirmation> => {
    const read = confirmationOf(place, booking, input);
    const confirmation = core.usable('bookings.create', read, 'shown without it');
    if (mailed) await attempts.claim(mailClaim(confirmation.reference));
    else attempts.made(confirmation.reference);
    await attempts.set(key, { fingerprint, state: 'done', confirmation });
    return confirmation;
  };
  const api = core.lodgingApi();
  const mark = keyMark(core.tenant.id, key);
  let looked: { guest: Guest | undefined } | undefined;
  if (!attempt && (await attempts.mayHaveForgotten())) {
    const email = normalizeEmail(input.email);
    looked = { guest: await findByEmail(api, email, email) };
    // The booking this key made before the shared store forgot it (Redis came back empty, a new
    // process without Redis), by the key's mark under the guest's record or the online-requests
    // one; no record with this e-mail: nothing was booked for it (a first booking makes one).
    const { guest } = looked;
    const records = guest ? [String(guest.id), await core.onlineRequests('')] : [];
    for (const guestId of new Set(records)) {
      const found = await lostBooking(api, guestId, mark, place, input);
      // Its e-mail went out when it was made (or, at worst, never): it is not sent again.
      if (found) return done(found, true);
    }
  }
  const sent = await recipient(core, api, input, attempt, mark, looked);
  if (attempt?.state === 'unknown') {
    const found = await lostBooking(api, sent.guestId, mark, place, input);
    if (found) return done(found, false);
    // Not there yet: the lost create may still be stored; only after it settled is it booked anew.
    const waited = (core.now().getTime() - (attempt.lostAt ?? 0)) / 1000;
    if (waited < SETTLE_SECONDS) throw outcomeUnknownFailure(Math.ceil(SETTLE_SECONDS - waited));
  }
  /** What a create that failed without a 5xx of the API's own leaves, and the error to throw. */
  const notBooked = async (thrown: unknown) => {
    if (outcomeUnknown(thrown)) {
      const lostAt = core.now().getTime();
      await attempts.set(key, { fingerprint, state: 'unknown', ...sent, lostAt });
      for (const stay of stayKeys) await attempts.markBooked(lostStay(stay), JUST_BOOKED_SECONDS);
      return outcomeUnknownFailure(SETTLE_SECONDS);
    }
    // Known not stored (422, 429, 4xx): this key may try again from scratch.
    await attempts.delete(key);
    // A 409 (no status the contract names; the room just taken): a 422 on the room, not an outage.
    const error =
      thrown instanceof UpstreamError && thrown.status === 409
        ? invalid({ roomTypeId: [textKey('booking.error.roomGone')] })
        : thrown;
    // Refused (the room went meanwhile, through another channel or server): the next search of
    // the property asks the lodging API afresh, so the guest is shown the room as taken.
    if (classify(error).kind === 'invalid') core.booked(place.id);
    return error;
  };
  await attempts.set(key, { fingerprint, state: 'unknown', ...sent });
  let booking: Booking;
  try {
    booking = await api.createBooking({
      property_id: place.id,
      room_type_id: input.roomTypeId,
      guest_id: sent.guestId,
      check_in: input.checkIn,
      check_out: input.checkOut,
      adults: input.adults,
      children: input.children,
      ...(sent.notes ? { notes: sent.notes } : {}),
    });
  } catch (thrown) {
    if (!answered(thrown)) throw await notBooked(thrown);
    // The API's own 5xx ended that request: what it stored is listed now. Found, it is booked;
    // not found (or not looked up), the key stays `unknown` without a wait, so Try again looks
    // once more and books (a failed look-up leaves the stay marked: no other key books it).
    const found = await lostBooking(api, sent.guestId, mark, place, input).catch(() => null);
    if (found === null) {
      for (const stay of stayKeys) await attempts.markBooked(lostStay(stay), JUST_BOOKED_SECONDS);
    }
    if (!found) throw thrown;
    booking = found;
  }
  core.booked(place.id);
  for (const stay of stayKeys) await attempts.markBooked(stay, JUST_BOOKED_SECONDS);
  return done(booking, false);
}

/**
 * Books as the booking step: its lodging calls may use the reserve that searches leave.
 * `anotherRoom`: the guest chose to book the same stay once more (a second room). `browser`: the
 * booking browser's id: after Back, or in another tab, a new e-mail address makes no second stay.
 */
export const book = (
  core: ServiceCore,
  input: BookingRequest,
  anotherRoom: boolean,
  browser?: string,
) =>
  asBookingStep(async (): Promise<Confirmation> => {
    const place = await core.property(input.propertyId);
    const errors = {
      ...stayErrors(input.checkIn, input.checkOut, core.rules(place)),
      ...guestErrors(input.adults, input.children, place),
      ...detailsErrors(input, core.lodging.fields),
    };
    const room = place.roomTypes.find((r) => r.id === input.roomTypeId);
    if (!room) errors['roomTypeId'] = [textKey('booking.error.roomRequired')];
    else if (!fits(room, input.adults, input.children)) {
      errors['roomTypeId'] = [textKey('booking.error.roomTooSmall', { count: room.maxOccupancy })];
    }
    if (hasErrors(errors)) throw invalid(errors);

    const { idempotencyKey, ...details } = input;
    const fingerprint = fingerprintOf(details);
    // Fast path without the lock: a repeat of a finished attempt, or a reused key.
    const known = await core.attempts.get(idempotencyKey);
    assertSameDetails(known, fingerprint);
    if (known?.state === 'done') return known.confirmation;

    const { checkIn, checkOut, roomTypeId } = input;
    const stayOf = (who: string) => fingerprintOf([place.id, who, checkIn, checkOut, roomTypeId]);
    const stayKey = stayOf(normalizeEmail(input.email));
    const stayKeys = browser ? [stayKey, stayOf(`browser:${browser}`)] : [stayKey];
    // Locked by each of its stays (in one order: two locking the same pair never wait on each
    // other), so two tabs of one browser with two e-mail addresses cannot both book.
    const locked = [...stayKeys].sort().reduceRight<() => Promise<Confirmation>>(
      (inner, stay) => () => core.lock.run(stay, inner),
      () => createOnce(core, { place, input, fingerprint, stayKeys, anotherRoom }),
    );
    try {
      return await locked();
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        const wait = RETRY_AFTER_SECONDS;
        throw busy(textKey('booking.error.inProgress', { wait }), wait);
      }
      throw toFailure(error, core.context('book'), core.lodging.contact);
    }
  });
