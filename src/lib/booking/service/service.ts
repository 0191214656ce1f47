import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { LodgingClient } from '../../lodging/client.ts';
import type { Booking, Guest } from '../../lodging/schema.ts';
import { offersBooking } from '../../tenants/booking.ts';
import type { Tenant } from '../../tenants/schema.ts';
import {
  InvalidResponseError,
  NetworkError,
  TimeoutError,
  UpstreamServerError,
} from '../../upstream/errors.ts';
import { createKeyedLock, LockTimeoutError } from '../../upstream/lock.ts';
import type { Upstream } from '../../upstream/runtime.ts';
import { asBookingStep } from '../../upstream/visitor.ts';
import { SERVER_CHECKS } from '../domain/server-checks.ts';
import { stayErrors, todayIn } from '../domain/dates.ts';
import { contactLine } from '../domain/contact.ts';
import {
  busy,
  invalid,
  notOffered,
  notOnline,
  placeNotFound,
  sameStay,
  toFailure,
} from '../domain/failures.ts';
import { normalizeEmail } from '../domain/email.ts';
import { chooseGuest, findByEmail, onlineRequestsGuest } from './guests.ts';
import { onFileNotes } from './hotel-note.ts';
import { assertSameDetails, attemptStore, fingerprintOf } from './idempotency.ts';
import type { Attempt } from './idempotency.ts';
import { lazyLodgingClient } from './lodging.ts';
import type { LodgingCredentials } from '../../secrets/tenant.ts';
import {
  detailsErrors,
  detailsPresentation,
  guestErrors,
  hasErrors,
  normalizePhone,
} from '../domain/rules.ts';
import type { AvailabilityQuery, BookingRequest } from '../domain/schema.ts';
import { holdsRoom } from '../domain/status.ts';
import type { AvailabilityResult, Confirmation, PropertySummary } from '../domain/types.ts';
import type { Read } from './wire.ts';
import { availabilityResult, bookingInput, confirmationOf, propertySummary } from './wire.ts';
import { textKey } from '../../i18n/text-key.ts';
import { i18nFor } from '../../i18n/index.ts';
import { logError } from '../../log/log.ts';
import { confirmationMail } from '../mail/confirmation.ts';
import { textMail } from '../mail/text.ts';
import { stayDate } from '../../i18n/format.ts';
import type { Mailer } from '../mail/mailer.ts';

export interface BookingServiceOptions {
  /** The site's (`siteUpstream()`) or a test's. */
  upstream: Upstream;
  /** The tenant's lodging credentials, asked again on each use (they may change while running). */
  credentials: () => LodgingCredentials;
  /** Shared store for the creation lock and the idempotency memory (several instances). */
  redisUrl?: string | undefined;
  now?: () => Date;
  /** Sends guests' e-mails; none is sent (or promised) without one. */
  mailer?: Mailer | undefined;
}

/** What the confirmation e-mail needs besides the booking. */
export interface MailRequest {
  confirmation: Confirmation;
  /** The address and name the guest typed. */
  to: string;
  guestName: string;
  /** Absolute address of the booking's private manage page. */
  manageUrl: string;
  /** The site the guest booked on (its address), named in the e-mail's footer. */
  site: string;
}

/** Pages of the guest's bookings read when looking for one whose answer was lost. */
const MAX_BOOKING_PAGES = 5;

/**
 * How long other keys for a stay just booked are turned away (a second tab or browser, racing
 * submits) unless the guest chose "book another room for the same dates". Long enough to cover a
 * second browser filling in the form; it says only what the one who typed the stay already knows.
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

/** `notes` (cut with "…" to leave room) and then the key's mark, within `max` characters. */
export function markedNotes(notes: string, mark: string, max: number): string {
  if (!notes) return mark;
  const room = max - mark.length - 1;
  const kept = notes.length <= room ? notes : `${notes.slice(0, Math.max(0, room - 1))}…`;
  return `${kept}\n${mark}`;
}

/** A write whose answer never arrived, or arrived unreadable: it may have been stored. */
function outcomeUnknown(error: unknown): boolean {
  return (
    error instanceof UpstreamServerError ||
    error instanceof TimeoutError ||
    error instanceof NetworkError ||
    error instanceof InvalidResponseError
  );
}

/**
 * The only holder of the tenant's lodging credentials. Reads go through the upstream read cache
 * (short availability TTL, concurrent identical searches coalesced). Creating a booking is
 * single-flight per (property, e-mail, dates, room) across instances, and returns a booking only to
 * the idempotency key that created it. Whether a guest, an e-mail or a stay exists changes nothing
 * in the answer (guests.ts).
 */
export function bookingService(tenant: Tenant, options: BookingServiceOptions) {
  if (!offersBooking(tenant)) throw notOffered();
  const lodging = tenant.lodging;
  const { propertyIds } = lodging;
  const now = options.now ?? (() => new Date());
  const context = (operation: string) => ({ tenant: tenant.id, operation });
  const lodgingApi = lazyLodgingClient(tenant, lodging, options.credentials, options.upstream);
  const attempts = attemptStore({ scope: tenant.id, redisUrl: options.redisUrl });
  const creation = createKeyedLock({
    redisUrl: options.redisUrl,
    prefix: `masthead:lock:booking:${tenant.id}:`,
  });

  // After a booking, the next search of each range on that property skips the cache once.
  const bookedAt = new Map<string, number>();
  const searchedAt = new LRUCache<string, number>({ max: 5000 });
  let clock = 0;
  const tick = (): number => (clock += 1);

  const rules = () => ({
    today: todayIn(tenant.timeZone, now()),
    minNights: lodging.minNights,
    maxNights: lodging.maxNights,
  });

  /** Missing fields go to the logs (one line per operation and set of fields) and `/_status`. */
  function usable<T>(operation: string, read: Read<T>, effect: string): T {
    if (read.missing.length > 0) {
      options.upstream.metrics.problem({
        service: 'lodging',
        tenant: tenant.id,
        operation,
        field: [...read.missing].sort().join(', '),
        effect: read.value === undefined ? effect : 'shown without it',
      });
    }
    // A step that cannot work without them: refused honestly, with whom to contact instead.
    if (read.value === undefined) throw notOnline(lodging.contact);
    return read.value;
  }

  async function property(id: string): Promise<PropertySummary> {
    if (!propertyIds.includes(id)) throw placeNotFound();
    try {
      const read = propertySummary(await lodgingApi().getProperty(id));
      return usable('properties.get', read, 'booking not available online');
    } catch (error) {
      throw toFailure(error, context('property'));
    }
  }

  async function properties(): Promise<PropertySummary[]> {
    return Promise.all(propertyIds.map((id) => property(id)));
  }

  async function availability(query: AvailabilityQuery): Promise<AvailabilityResult> {
    const place = await property(query.property);
    const errors = {
      ...stayErrors(query.checkIn, query.checkOut, rules()),
      ...guestErrors(query.adults, query.children, place.capacity, place.name),
    };
    if (hasErrors(errors)) throw invalid(errors);
    const guests = query.adults + query.children;
    const key = `${place.id}|${query.checkIn}|${query.checkOut}|${guests}`;
    const fresh = (bookedAt.get(place.id) ?? 0) > (searchedAt.get(key) ?? 0);
    searchedAt.set(key, tick());
    try {
      const result = await lodgingApi().getAvailability(
        place.id,
        { check_in: query.checkIn, check_out: query.checkOut, guests },
        { fresh },
      );
      return usable(
        'properties.availability',
        availabilityResult(place, query, result),
        'availability not shown',
      );
    } catch (error) {
      throw toFailure(error, context('availability'));
    }
  }

  /**
   * The booking a create whose answer was lost may have stored: this guest record's, for exactly
   * these nights and room, still holding it (and with the notes sent, under the online-requests record).
   */
  async function lostBooking(
    api: LodgingClient,
    sent: { guestId: string; notes?: string | undefined; mark?: string },
    place: PropertySummary,
    input: BookingRequest,
  ): Promise<Booking | undefined> {
    const sameNotes = (notes: string) =>
      sent.mark !== undefined
        ? notes.includes(sent.mark)
        : sent.notes === undefined || notes.trim() === sent.notes.trim();
    for (let page = 1; page <= MAX_BOOKING_PAGES; page += 1) {
      const list = await api.listBookings(
        {
          guest_id: sent.guestId,
          property_id: place.id,
          check_in_from: input.checkIn,
          check_in_to: input.checkIn,
          page,
          perPage: 50,
        },
        { fresh: true },
      );
      const same = list.items.find(
        (b) =>
          b.check_in === input.checkIn &&
          b.check_out === input.checkOut &&
          (b.guest_id == null || String(b.guest_id) === sent.guestId) &&
          (b.room_type_id == null || String(b.room_type_id) === input.roomTypeId) &&
          sameNotes(b.notes ?? '') &&
          holdsRoom(b.status),
      );
      if (same) return same;
      if (list.page.current >= list.page.last || list.items.length === 0) return undefined;
    }
    return undefined;
  }

  function confirm(place: PropertySummary, booking: Booking, input: BookingRequest): Confirmation {
    return usable('bookings.create', confirmationOf(place, booking, input), 'shown without it');
  }

  // The tenant's record for bookings whose e-mail is on file (see guests.ts), found once per process.
  const onlineRequestsEmail = `online-requests@${tenant.id}.masthead.invalid`;
  let holder: Promise<string> | undefined;
  const onlineRequests = (api: LodgingClient, requesterPhone: string): Promise<string> => {
    const i18n = i18nFor(tenant);
    const own = normalizePhone(lodging.contact?.phone ?? '');
    holder ??= onlineRequestsGuest(api, {
      email: onlineRequestsEmail,
      firstName: i18n.t('booking.onlineRequests.firstName'),
      lastName: i18n.t('booking.onlineRequests.lastName'),
      phone: own || requesterPhone || undefined,
    }).catch((error: unknown) => {
      holder = undefined;
      throw error;
    });
    return holder;
  };

  /** The guest record and notes this attempt books with (the same again after a lost answer). */
  async function recipient(
    api: LodgingClient,
    input: BookingRequest,
    attempt: Attempt | undefined,
    looked?: { guest: Guest | undefined },
  ): Promise<{ guestId: string; notes?: string | undefined }> {
    if (attempt?.state === 'unknown' && attempt.guestId) {
      return { guestId: attempt.guestId, notes: attempt.notes };
    }
    const choice = await chooseGuest(api, input, (phone) => onlineRequests(api, phone), looked);
    const max = detailsPresentation(lodging.fields).notesMax;
    const mark = keyMark(tenant.id, input.idempotencyKey);
    const notes =
      choice.kind === 'new' ? input.notes.trim() : onFileNotes(i18nFor(tenant), input, max);
    return { guestId: choice.guestId, notes: markedNotes(notes, mark, max) };
  }

  /**
   * The booking this key made before the shared store forgot it (Redis came back empty, a new
   * process without Redis): found by the key's mark under the guest's record or the
   * online-requests one. Only the key that made it finds it.
   */
  async function markedBooking(
    api: LodgingClient,
    place: PropertySummary,
    input: BookingRequest,
    guest: Guest | undefined,
  ): Promise<Booking | undefined> {
    // No record with this e-mail: nothing was booked for it (a first booking makes one).
    if (!guest) return undefined;
    const mark = keyMark(tenant.id, input.idempotencyKey);
    for (const guestId of new Set([String(guest.id), await onlineRequests(api, '')])) {
      const found = await lostBooking(api, { guestId, mark }, place, input);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * The same stay booked moments ago with another key (another tab, a second click after a reload):
   * where its confirmation is, and whom to ask (the tenant's contact, when it gives one). Never a
   * success, no e-mail promised (that one may not have been sent), and no "try again": only the
   * explicit "book another room for the same dates" (`anotherRoom`) books it once more.
   */
  function justBookedMessage(): string {
    const contact = contactLine(lodging.contact);
    return contact
      ? textKey('booking.error.justBookedContact', { contact })
      : textKey('booking.error.justBooked');
  }

  /** Runs inside the creation lock: the lost-answer check and the create cannot interleave. */
  async function createOnce(
    place: PropertySummary,
    input: BookingRequest,
    fingerprint: string,
    stayKey: string,
    anotherRoom: boolean,
  ): Promise<Confirmation> {
    const key = input.idempotencyKey;
    const attempt = await attempts.get(key);
    assertSameDetails(attempt, fingerprint);
    if (attempt?.state === 'done') return attempt.confirmation;
    // Racing submits of one stay with other keys (two tabs, a second browser, a script): the first
    // books, the rest are turned away here, before any upstream call, and a key once turned away
    // stays so (pressing "Book" again later never books it): only `anotherRoom` goes on. For a
    // while only, so it tells no one much later that a stay exists; after it a new key is new.
    if (!anotherRoom) {
      if (attempt?.state === 'same-stay') throw sameStay(justBookedMessage());
      if (attempt?.state !== 'unknown' && (await attempts.justBooked(stayKey))) {
        await attempts.set(key, { fingerprint, state: 'same-stay' });
        throw sameStay(justBookedMessage());
      }
    }
    const api = lodgingApi();
    let looked: { guest: Guest | undefined } | undefined;
    if (!attempt && (await attempts.mayHaveForgotten())) {
      const email = normalizeEmail(input.email);
      looked = { guest: await findByEmail(api, email, email) };
      const found = await markedBooking(api, place, input, looked.guest);
      if (found) {
        const confirmation = confirm(place, found, input);
        // Its e-mail went out when it was made (or, at worst, never): it is not sent again.
        await attempts.claim(`mail:${confirmation.reference}`);
        await attempts.set(key, { fingerprint, state: 'done', confirmation });
        return confirmation;
      }
    }
    const sent = await recipient(api, input, attempt, looked);
    if (attempt?.state === 'unknown') {
      const found = await lostBooking(api, sent, place, input);
      if (found) {
        const confirmation = confirm(place, found, input);
        await attempts.set(key, { fingerprint, state: 'done', confirmation });
        return confirmation;
      }
    }
    await attempts.set(key, { fingerprint, state: 'unknown', ...sent });
    let booking: Booking;
    try {
      booking = await api.createBooking(bookingInput(place, input, sent.guestId, sent.notes));
    } catch (error) {
      // Known not stored (422, 429, 4xx): this key may try again from scratch.
      if (!outcomeUnknown(error)) await attempts.delete(key);
      throw error;
    }
    bookedAt.set(place.id, tick());
    await attempts.markBooked(stayKey, JUST_BOOKED_SECONDS);
    const confirmation = confirm(place, booking, input);
    await attempts.set(key, { fingerprint, state: 'done', confirmation });
    return confirmation;
  }

  /**
   * Books as the booking step: its lodging calls may use the reserve that searches leave.
   * `anotherRoom`: the guest chose to book the same stay once more (a second room).
   */
  function book(
    input: BookingRequest,
    choice: { anotherRoom?: boolean } = {},
  ): Promise<Confirmation> {
    return asBookingStep(() => bookNow(input, choice.anotherRoom === true));
  }

  async function bookNow(input: BookingRequest, anotherRoom: boolean): Promise<Confirmation> {
    const place = await property(input.propertyId);
    const errors = {
      ...stayErrors(input.checkIn, input.checkOut, rules()),
      ...guestErrors(input.adults, input.children, place.capacity, place.name),
      ...detailsErrors(input, SERVER_CHECKS, lodging.fields),
    };
    const room = place.roomTypes.find((r) => r.id === input.roomTypeId);
    if (!room) errors['roomTypeId'] = [textKey('booking.error.roomRequired')];
    else if (
      input.adults > room.maxAdults ||
      input.children > room.maxChildren ||
      input.adults + input.children > room.maxOccupancy
    ) {
      errors['roomTypeId'] = [textKey('booking.error.roomTooSmall', { count: room.maxOccupancy })];
    }
    if (hasErrors(errors)) throw invalid(errors);

    const { idempotencyKey, ...details } = input;
    const fingerprint = fingerprintOf(details);
    // Fast path without the lock: a repeat of a finished attempt, or a reused key.
    const known = await attempts.get(idempotencyKey);
    assertSameDetails(known, fingerprint);
    if (known?.state === 'done') return known.confirmation;

    const email = normalizeEmail(input.email);
    const lockKey = fingerprintOf([
      place.id,
      email,
      input.checkIn,
      input.checkOut,
      input.roomTypeId,
    ]);
    try {
      return await creation.run(lockKey, () =>
        createOnce(place, input, fingerprint, lockKey, anotherRoom),
      );
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        throw busy(textKey('booking.error.inProgress', { wait: 5 }), 5);
      }
      throw toFailure(error, context('book'));
    }
  }

  /**
   * The confirmation e-mail, in the tenant's language, once per booking: a retry, a double click or
   * another server (with Redis) finds it claimed. False when none was sent (no mailer, sent before,
   * or the mail server refused it; then a later retry may send it).
   */
  async function mailConfirmation(request: MailRequest): Promise<boolean> {
    const send = options.mailer;
    if (!send) return false;
    const claim = `mail:${request.confirmation.reference}`;
    if (!(await attempts.claim(claim))) return false;
    try {
      const place = await property(request.confirmation.propertyId).catch(() => undefined);
      const mail = confirmationMail(
        { ...request, property: place, contact: lodging.contact },
        i18nFor(tenant),
      );
      await send({ ...mail, to: request.to, fromName: tenant.name });
      return true;
    } catch (error) {
      await attempts.release(claim);
      logError('booking.mail_failed', context('mail'), error);
      return false;
    }
  }

  /**
   * "Find my booking": the booking with this reference made with this e-mail, on a property of this
   * tenant (under the guest's own record, or under the online-requests record with that e-mail in
   * its notes), or null. Callers answer the same either way (no disclosure).
   */
  async function findStay(emailTyped: string, reference: string): Promise<Booking | null> {
    const email = normalizeEmail(emailTyped);
    const wanted = reference.trim().toUpperCase();
    const api = lodgingApi();
    const guest = await findByEmail(api, email, email);
    const holder = await onlineRequests(api, '').catch(() => undefined);
    const records = [guest ? String(guest.id) : undefined, holder].filter(
      (id): id is string => id !== undefined,
    );
    for (const guestId of records) {
      for (let page = 1; page <= MAX_BOOKING_PAGES; page += 1) {
        const list = await api.listBookings(
          { guest_id: guestId, page, perPage: 50 },
          { fresh: true },
        );
        const found = list.items.find(
          (b) =>
            (b.reference ?? String(b.id)).toUpperCase() === wanted &&
            propertyIds.includes(String(b.property_id ?? '')) &&
            (guestId !== holder || normalizeEmail(b.notes ?? '').includes(`<${email}>`)),
        );
        if (found) return found;
        if (list.page.current >= list.page.last || list.items.length === 0) break;
      }
    }
    return null;
  }

  /** Sends the private link of the booking `findStay` found to the address it was made with. */
  async function mailLink(request: Omit<MailRequest, 'confirmation'> & { booking: Booking }) {
    const send = options.mailer;
    if (!send) return false;
    const { t } = i18nFor(tenant);
    const reference = request.booking.reference ?? String(request.booking.id);
    const { text, html } = textMail([
      ...(request.guestName ? [t('mail.greeting', { name: request.guestName }), ''] : []),
      t('mail.findText', { reference }),
      `${t('mail.manage')}: ${request.manageUrl}`,
      t('manage.private'),
      '',
      '-- ',
      t('mail.footer', { site: request.site }),
    ]);
    await send({
      to: request.to,
      fromName: tenant.name,
      subject: t('mail.findSubject', { reference }),
      text,
      html,
    });
    return true;
  }

  /**
   * Where a booking's e-mails go: its guest record's address, or for a booking under the
   * online-requests record, the address its notes name (see guests.ts). Undefined when neither.
   */
  async function guestOf(booking: Booking): Promise<{ email: string; name: string } | undefined> {
    if (booking.guest_id == null) return undefined;
    const guest = await lodgingApi().getGuest(String(booking.guest_id), { fresh: true });
    const email = normalizeEmail(guest.email ?? '');
    if (email === onlineRequestsEmail) {
      const named = /<([^<>\s]+@[^<>\s]+)>/.exec(booking.notes ?? '')?.[1];
      return named ? { email: named, name: '' } : undefined;
    }
    const name = `${guest.first_name} ${guest.last_name}`.trim();
    return email ? { email: guest.email ?? email, name } : undefined;
  }

  /**
   * The cancellation e-mail, in the tenant's language, once per booking (a repeated cancel, a
   * reload or another server finds it claimed), to the address the booking was made with.
   */
  async function mailCancellation(request: {
    booking: Booking;
    place: PropertySummary;
    /** Absolute addresses on the tenant's mail origin: its booking page and its home. */
    bookUrl: string;
    site: string;
  }): Promise<boolean> {
    const send = options.mailer;
    if (!send) return false;
    const { booking, place } = request;
    const reference = booking.reference ?? String(booking.id);
    const claim = `cancel-mail:${reference}`;
    if (!(await attempts.claim(claim))) return false;
    try {
      const guest = await guestOf(booking);
      if (!guest) return false;
      const { t, locale } = i18nFor(tenant);
      const contact = contactLine(lodging.contact);
      const dates = `${stayDate(booking.check_in, locale)} – ${stayDate(booking.check_out, locale)}`;
      const { text, html } = textMail([
        ...(guest.name ? [t('mail.greeting', { name: guest.name }), ''] : []),
        t('manage.cancelMailText', { reference, place: place.name, dates }),
        '',
        t('manage.cancelMailAgain', { url: request.bookUrl }),
        ...(contact ? [t('manage.contact', { contact })] : []),
        '',
        '-- ',
        t('mail.footer', { site: request.site }),
      ]);
      const subject = t('manage.cancelMailSubject', { reference });
      await send({ to: guest.email, fromName: tenant.name, subject, text, html });
      return true;
    } catch (error) {
      await attempts.release(claim);
      logError('booking.cancel_mail_failed', context('mail'), error);
      return false;
    }
  }

  return {
    tenant,
    rules,
    mailCancellation,
    property,
    properties,
    availability,
    book,
    mailConfirmation,
    findStay,
    mailLink,
  };
}

export type BookingService = ReturnType<typeof bookingService>;
