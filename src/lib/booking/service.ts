import { LRUCache } from 'lru-cache';
import { lodgingClient } from '../lodging/client.ts';
import type { LodgingClient } from '../lodging/client.ts';
import type { Booking, Property } from '../lodging/schema.ts';
import { logError } from '../log.ts';
import { offersBooking } from '../tenants/booking.ts';
import type { Tenant } from '../tenants/schema.ts';
import { isOutage, NotFoundError, RateLimitedError, ValidationError } from '../upstream/errors.ts';
import type { Upstream } from '../upstream/runtime.ts';
import { isCountryCode } from './countries.ts';
import { nightsBetween, stayErrors, todayIn } from './dates.ts';
import type { FieldErrors } from './dates.ts';
import { detailsErrors, guestErrors, hasErrors, normalizePhone } from './rules.ts';
import type { Capacity } from './rules.ts';
import type { AvailabilityQueryInput, BookingRequestInput } from './schema.ts';
import type {
  ApiError,
  AvailabilityResult,
  Confirmation,
  PropertySummary,
  RoomOffer,
} from './types.ts';

/** A failure with a visitor-safe payload; endpoints turn it into JSON. */
export class BookingFailure extends Error {
  override name = 'BookingFailure';
  readonly error: ApiError;
  readonly status: number;

  constructor(status: number, error: ApiError) {
    super(error.message);
    this.status = status;
    this.error = error;
  }
}

export function invalid(fields: FieldErrors): BookingFailure {
  return new BookingFailure(422, {
    code: 'validation',
    message: 'Please check the highlighted fields.',
    fields,
  });
}

/** Upstream field names → widget field names. */
const FIELD_NAMES: Record<string, string> = {
  property_id: 'propertyId',
  room_type_id: 'roomTypeId',
  check_in: 'checkIn',
  check_out: 'checkOut',
  guests: 'adults',
  adults: 'adults',
  children: 'children',
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  phone: 'phone',
  nationality: 'nationality',
  notes: 'notes',
};

/** Maps a thrown error to a visitor-safe failure (upstream messages stay in the logs). */
export function toFailure(
  error: unknown,
  context: { tenant: string; operation: string },
): BookingFailure {
  if (error instanceof BookingFailure) return error;
  if (error instanceof ValidationError) {
    const fields: FieldErrors = {};
    for (const [name, messages] of Object.entries(error.fields)) {
      const key = FIELD_NAMES[name] ?? 'form';
      fields[key] =
        key === 'roomTypeId'
          ? ['This room is no longer free for these dates. Please choose another.']
          : messages;
    }
    return invalid(Object.keys(fields).length ? fields : { form: ['Please check your details.'] });
  }
  if (error instanceof RateLimitedError) {
    const retryAfter = Math.max(1, Math.ceil(error.retryAfterSeconds));
    return new BookingFailure(429, {
      code: 'busy',
      message: `Booking is busy right now. Please try again in ${retryAfter} s.`,
      retryAfter,
    });
  }
  if (error instanceof NotFoundError) {
    return new BookingFailure(404, {
      code: 'not_found',
      message: 'This place to stay was not found.',
    });
  }
  // Outages were logged once by the upstream client; 401/403 (a token or configuration problem)
  // and bugs are loud in the logs, vague to visitors.
  if (!isOutage(error)) logError('booking.failed', context, error);
  return new BookingFailure(503, {
    code: 'unavailable',
    message: 'Booking is temporarily unavailable. Your details are kept: please try again.',
    retryAfter: 10,
  });
}

const OCCUPYING = new Set(['pending', 'confirmed', 'checked_in']);

function summary(property: Property): PropertySummary {
  const roomTypes = property.room_types.map((room) => ({
    id: String(room.id),
    name: room.name,
    description: room.description ?? '',
    maxAdults: room.max_adults ?? room.max_occupancy ?? 2,
    maxChildren: room.max_children ?? 0,
    maxOccupancy: room.max_occupancy ?? (room.max_adults ?? 2) + (room.max_children ?? 0),
  }));
  const capacity: Capacity = {
    maxAdults: Math.max(1, ...roomTypes.map((r) => r.maxAdults)),
    maxChildren: Math.max(0, ...roomTypes.map((r) => r.maxChildren)),
    maxOccupancy: Math.max(1, ...roomTypes.map((r) => r.maxOccupancy)),
  };
  return {
    id: String(property.id),
    name: property.name ?? 'Our property',
    currency: property.currency ?? property.room_types[0]?.currency ?? 'EUR',
    city: property.city ?? '',
    roomTypes,
    capacity,
  };
}

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
  if (!offersBooking(tenant)) {
    throw new BookingFailure(404, { code: 'not_found', message: 'Booking is not offered here.' });
  }
  const lodging = tenant.lodging;
  const env = options.env;
  const now = options.now ?? (() => new Date());
  const context = (operation: string) => ({ tenant: tenant.id, operation });

  let client: LodgingClient | undefined;
  const lodgingApi = (): LodgingClient => {
    if (client) return client;
    const token = lodging.tokenEnv ? env[lodging.tokenEnv] : undefined;
    const email = lodging.emailEnv ? env[lodging.emailEnv] : undefined;
    const password = lodging.passwordEnv ? env[lodging.passwordEnv] : undefined;
    if (!token && !(email && password)) {
      logError('booking.no_credentials', { tenant: tenant.id });
      throw new BookingFailure(503, {
        code: 'unavailable',
        message: 'Booking is temporarily unavailable.',
        retryAfter: 60,
      });
    }
    client = lodgingClient({
      accountKey: `tenant:${tenant.id}`,
      baseUrl: lodging.baseUrl,
      ...(token ? { token } : { email, password }),
      upstream: options.upstream,
    });
    return client;
  };

  // After a booking, the next search of each range on that property skips the cache once.
  const bookedAt = new Map<string, number>();
  const searchedAt = new LRUCache<string, number>({ max: 5000 });
  // Idempotency: one booking per key (a double click, a retry after a timeout).
  const attempts = new LRUCache<string, { fingerprint: string; result: Promise<Confirmation> }>({
    max: 5000,
    ttl: 24 * 60 * 60 * 1000,
  });
  let clock = 0;
  const tick = (): number => (clock += 1);

  const rules = () => ({
    today: todayIn(tenant.timeZone, now()),
    minNights: lodging.minNights,
    maxNights: lodging.maxNights,
  });

  async function property(id: string): Promise<PropertySummary> {
    if (!lodging.propertyIds.includes(id)) {
      throw new BookingFailure(404, {
        code: 'not_found',
        message: 'This place to stay was not found.',
      });
    }
    try {
      return summary(await lodgingApi().getProperty(id));
    } catch (error) {
      throw toFailure(error, context('property'));
    }
  }

  async function properties(): Promise<PropertySummary[]> {
    return Promise.all(lodging.propertyIds.map((id) => property(id)));
  }

  async function availability(query: AvailabilityQueryInput): Promise<AvailabilityResult> {
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
    let result;
    try {
      result = await lodgingApi().getAvailability(
        place.id,
        { check_in: query.checkIn, check_out: query.checkOut, guests },
        { fresh },
      );
    } catch (error) {
      throw toFailure(error, context('availability'));
    }
    const rooms: RoomOffer[] = result.room_types.map((offer) => {
      const type = place.roomTypes.find((r) => r.id === String(offer.room_type_id));
      const fits = !type || (query.adults <= type.maxAdults && query.children <= type.maxChildren);
      return {
        roomTypeId: String(offer.room_type_id),
        name: offer.name ?? type?.name ?? 'Room',
        description: type?.description ?? '',
        maxOccupancy: offer.max_occupancy ?? type?.maxOccupancy ?? guests,
        available: offer.available && fits,
        availableRooms: offer.available_rooms ?? 0,
        pricePerNight: Number(offer.price_per_night ?? 0),
        totalPrice: Number(offer.total_price ?? 0),
        currency: offer.currency ?? result.currency ?? place.currency,
      };
    });
    return {
      propertyId: place.id,
      checkIn: query.checkIn,
      checkOut: query.checkOut,
      nights: nightsBetween(query.checkIn, query.checkOut),
      adults: query.adults,
      children: query.children,
      currency: result.currency ?? place.currency,
      rooms,
    };
  }

  function confirmationOf(
    place: PropertySummary,
    booking: Booking,
    input: BookingRequestInput,
  ): Confirmation {
    const roomTypeId = String(booking.room_type_id ?? input.roomTypeId);
    return {
      reference: booking.reference ?? String(booking.id),
      propertyId: place.id,
      propertyName: place.name,
      roomTypeId,
      roomName: place.roomTypes.find((r) => r.id === roomTypeId)?.name ?? 'Room',
      checkIn: booking.check_in,
      checkOut: booking.check_out,
      nights: booking.nights ?? nightsBetween(booking.check_in, booking.check_out),
      adults: booking.adults ?? input.adults,
      children: booking.children ?? input.children,
      totalPrice: Number(booking.total_price ?? 0),
      currency: booking.currency ?? place.currency,
      status: booking.status,
    };
  }

  async function findOrCreateGuest(input: BookingRequestInput): Promise<string> {
    const api = lodgingApi();
    const email = input.email.trim().toLowerCase();
    const find = async (): Promise<string | undefined> => {
      const page = await api.listGuests({ search: email, perPage: 100 }, { fresh: true });
      const guest = page.items.find((g) => (g.email ?? '').toLowerCase() === email);
      return guest === undefined ? undefined : String(guest.id);
    };
    const existing = await find();
    if (existing) return existing;
    const phone = normalizePhone(input.phone);
    try {
      const created = await api.createGuest({
        first_name: input.firstName.trim(),
        last_name: input.lastName.trim(),
        email,
        ...(phone ? { phone } : {}),
        ...(input.nationality ? { nationality: input.nationality } : {}),
      });
      return String(created.id);
    } catch (error) {
      // Someone created the same guest in between: use theirs.
      if (error instanceof ValidationError && error.fields['email']) {
        const again = await find();
        if (again) return again;
      }
      throw error;
    }
  }

  async function createOnce(
    place: PropertySummary,
    input: BookingRequestInput,
  ): Promise<Confirmation> {
    const api = lodgingApi();
    const guestId = await findOrCreateGuest(input);
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
    const booking = await api.createBooking({
      property_id: place.id,
      room_type_id: input.roomTypeId,
      guest_id: guestId,
      check_in: input.checkIn,
      check_out: input.checkOut,
      adults: input.adults,
      children: input.children,
      ...(input.notes.trim() ? { notes: input.notes.trim() } : {}),
    });
    bookedAt.set(place.id, tick());
    return confirmationOf(place, booking, input);
  }

  async function book(input: BookingRequestInput): Promise<Confirmation> {
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

    const { idempotencyKey, ...rest } = input;
    const fingerprint = JSON.stringify(rest);
    const key = idempotencyKey;
    const known = attempts.get(key);
    if (known) {
      if (known.fingerprint !== fingerprint) {
        throw new BookingFailure(409, {
          code: 'conflict',
          message: 'This booking was already sent with other details. Please reload and try again.',
        });
      }
      return known.result;
    }
    const result = createOnce(place, input).catch((error: unknown) => {
      // Failed attempts may be retried with the same key (the duplicate check guards them).
      attempts.delete(key);
      throw toFailure(error, context('book'));
    });
    attempts.set(key, { fingerprint, result });
    return result;
  }

  return { tenant, rules, property, properties, availability, book };
}

export type BookingService = ReturnType<typeof bookingService>;
