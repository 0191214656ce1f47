import { LRUCache } from 'lru-cache';
import { offersBooking } from '../tenants/booking.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Upstream } from '../upstream/runtime.ts';
import { isCountryCode } from './countries.ts';
import { stayErrors, todayIn } from './dates.ts';
import { invalid, notOffered, placeNotFound, toFailure } from './failures.ts';
import { findOrCreateGuest } from './guests.ts';
import { idempotentAttempts } from './idempotency.ts';
import { lazyLodgingClient } from './lodging.ts';
import { detailsErrors, guestErrors, hasErrors } from './rules.ts';
import type { AvailabilityQuery, BookingRequest } from './schema.ts';
import type { AvailabilityResult, Confirmation, PropertySummary } from './types.ts';
import { availabilityResult, bookingInput, confirmationOf, propertySummary } from './wire.ts';

const OCCUPYING = new Set(['pending', 'confirmed', 'checked_in']);

export interface BookingServiceOptions {
  /** The site's (`siteUpstream()`) or a test's. */
  upstream: Upstream;
  /** The lodging credentials, by the names the tenant's config gives them. */
  env: Record<string, string | undefined>;
  now?: () => Date;
}

/**
 * The only holder of the tenant's lodging credentials. Reads go through the upstream read cache
 * (short availability TTL, concurrent identical searches coalesced); writes are idempotent per key.
 */
export function bookingService(tenant: Tenant, options: BookingServiceOptions) {
  if (!offersBooking(tenant)) throw notOffered();
  const lodging = tenant.lodging;
  const { propertyIds } = lodging;
  const now = options.now ?? (() => new Date());
  const context = (operation: string) => ({ tenant: tenant.id, operation });
  const lodgingApi = lazyLodgingClient(tenant, lodging, options.env, options.upstream);

  // After a booking, the next search of each range on that property skips the cache once.
  const bookedAt = new Map<string, number>();
  const searchedAt = new LRUCache<string, number>({ max: 5000 });
  const once = idempotentAttempts<Confirmation>();
  let clock = 0;
  const tick = (): number => (clock += 1);

  const rules = () => ({
    today: todayIn(tenant.timeZone, now()),
    minNights: lodging.minNights,
    maxNights: lodging.maxNights,
  });

  async function property(id: string): Promise<PropertySummary> {
    if (!propertyIds.includes(id)) throw placeNotFound();
    try {
      return propertySummary(await lodgingApi().getProperty(id));
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
      ...guestErrors(query.adults, query.children, place.capacity),
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
      return availabilityResult(place, query, result);
    } catch (error) {
      throw toFailure(error, context('availability'));
    }
  }

  async function createOnce(place: PropertySummary, input: BookingRequest): Promise<Confirmation> {
    const api = lodgingApi();
    const guestId = await findOrCreateGuest(api, input);
    // A retry after a lost response: the booking may already exist.
    const previous = await api.listBookings(
      {
        guest_id: guestId,
        property_id: place.id,
        check_in_from: input.checkIn,
        check_in_to: input.checkIn,
        perPage: 100,
      },
      { fresh: true },
    );
    const same = previous.items.find(
      (b) =>
        b.check_in === input.checkIn && b.check_out === input.checkOut && OCCUPYING.has(b.status),
    );
    if (same) return confirmationOf(place, same, input);
    const booking = await api.createBooking(bookingInput(place, input, guestId));
    bookedAt.set(place.id, tick());
    return confirmationOf(place, booking, input);
  }

  async function book(input: BookingRequest): Promise<Confirmation> {
    const place = await property(input.propertyId);
    const errors = {
      ...stayErrors(input.checkIn, input.checkOut, rules()),
      ...guestErrors(input.adults, input.children, place.capacity),
      ...detailsErrors(input, isCountryCode),
    };
    const room = place.roomTypes.find((r) => r.id === input.roomTypeId);
    if (!room) errors['roomTypeId'] = ['Choose a room.'];
    else if (
      input.adults > room.maxAdults ||
      input.children > room.maxChildren ||
      input.adults + input.children > room.maxOccupancy
    ) {
      errors['roomTypeId'] = [
        `This room sleeps at most ${room.maxOccupancy}. Please choose another.`,
      ];
    }
    if (hasErrors(errors)) throw invalid(errors);

    const { idempotencyKey, ...details } = input;
    return once(idempotencyKey, details, () =>
      createOnce(place, input).catch((error: unknown) => {
        throw toFailure(error, context('book'));
      }),
    );
  }

  return { tenant, rules, property, properties, availability, book };
}

export type BookingService = ReturnType<typeof bookingService>;
