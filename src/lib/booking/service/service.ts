import type { Tenant } from '../../tenants/schema.ts';
import { stayErrors } from '../domain/dates.ts';
import { logWarn } from '../../log/log.ts';
import { invalid, toFailure } from '../domain/failures.ts';
import { guestErrors, hasErrors } from '../domain/rules.ts';
import type { AvailabilityQuery, BookingRequest } from '../domain/schema.ts';
import { mailCancellation, mailConfirmation, mailLink } from '../mail/send.ts';
import { findStay, namedBooking } from '../manage/find.ts';
import { book } from './create.ts';
import { serviceCore, type BookingServiceOptions } from './core.ts';
import {
  availabilityResult,
  type AvailabilityResult,
  type PropertySummary,
} from './lodging-shapes.ts';

/**
 * The only holder of the tenant's lodging credentials. Reads go through the upstream read cache;
 * a booking is single-flight per stay and returned only to the key that made it (create.ts).
 */
export function bookingService(tenant: Tenant, options: BookingServiceOptions) {
  const core = serviceCore(tenant, options);
  const { property, rules, usable, context } = core;

  async function availability(query: AvailabilityQuery): Promise<AvailabilityResult> {
    const place = await property(query.property);
    const errors = {
      ...stayErrors(query.checkIn, query.checkOut, rules(place)),
      ...guestErrors(query.adults, query.children, place),
    };
    if (hasErrors(errors)) throw invalid(errors);
    const guests = query.adults + query.children;
    const search = { check_in: query.checkIn, check_out: query.checkOut, guests };
    const fresh = core.searchFresh(place.id, JSON.stringify(search));
    try {
      const result = await core.lodgingApi().getAvailability(place.id, search, { fresh });
      const read = availabilityResult(place, query, result);
      return usable('properties.availability', read, 'availability not shown');
    } catch (error) {
      throw toFailure(error, context('availability'), core.lodging.contact);
    }
  }

  /**
   * The tenant's places that answer: one whose read fails is left out (and logged), so it cannot
   * take the others' booking down; none answering is the first one's failure.
   */
  async function properties(): Promise<PropertySummary[]> {
    const ids = core.lodging.propertyIds;
    const reads = await Promise.allSettled(ids.map((id) => property(id)));
    const read: PropertySummary[] = [];
    for (const [at, result] of reads.entries()) {
      if (result.status === 'fulfilled') read.push(result.value);
      else logWarn('booking.place_left_out', { ...context('properties'), property: ids[at] });
    }
    if (read.length === 0 && reads[0]?.status === 'rejected') throw reads[0].reason;
    return read;
  }

  return {
    tenant: core.tenant,
    rules,
    property,
    properties,
    availability,
    /**
     * `anotherRoom`: the guest chose to book the same stay once more (a second room); `browser`:
     * the id of the browser booking (its session's), whose stays are guarded whatever the e-mail.
     */
    book: (
      input: BookingRequest,
      choice: { anotherRoom?: boolean; browser?: string | undefined } = {},
    ) => book(core, input, choice.anotherRoom === true, choice.browser),
    /** Whether `input`'s key booked already (best effort: a store away says no). */
    booked: (input: BookingRequest) =>
      core.attempts.get(input.idempotencyKey).then(
        (known) => known?.state === 'done',
        () => false,
      ),
    mailConfirmation: mailConfirmation.bind(null, core),
    mailCancellation: mailCancellation.bind(null, core),
    findStay: findStay.bind(null, core),
    namedBooking: namedBooking.bind(null, core),
    cancelBooking: (id: string) => core.lodgingApi().cancelBooking(id),
    mailLink: mailLink.bind(null, core),
  };
}

export type BookingService = ReturnType<typeof bookingService>;
