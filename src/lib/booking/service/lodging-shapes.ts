import type {
  Availability,
  Booking,
  GuestInput,
  Property,
  RoomAvailability,
  RoomType,
} from '../../lodging/schema.ts';
import { nightsBetween } from '../domain/dates.ts';
import { fits, normalizePhone, type Capacity } from '../domain/rules.ts';
import type { AvailabilityQuery, BookingRequest } from '../domain/schema.ts';
import { statusKind } from '../domain/status.ts';

/**
 * Upstream lodging shapes ↔ the widget's wire format, whose types are what these functions make.
 * No calls. Nothing is invented: a value the API did not give stays unknown (null), and what a step
 * cannot do without is listed in `missing` (upstream field names) for the service to report and refuse.
 */

/** `value` is undefined when something required is missing; `missing` lists every field missed. */
export interface Read<T> {
  value: T | undefined;
  missing: string[];
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** A room type's limits apart (`Capacity`): a room may sleep 3 but only 2 of them adults. */
function roomTypeSummary(room: RoomType, missing: string[]) {
  const occupancy = room.max_occupancy ?? undefined;
  const adults = room.max_adults ?? occupancy;
  if (!room.name) missing.push('room_types[].name');
  if (adults === undefined) missing.push('room_types[].max_occupancy');
  if (!room.name || adults === undefined) return undefined;
  // Only what the API says, narrowed where it says less: at least one adult shares the room.
  const children = room.max_children ?? (occupancy === undefined ? 0 : Math.max(0, occupancy - 1));
  return {
    id: String(room.id),
    name: room.name,
    description: room.description ?? '',
    maxAdults: adults,
    maxChildren: children,
    maxOccupancy: occupancy ?? adults + (room.max_children ?? 0),
  };
}

export function propertySummary(property: Property) {
  const missing: string[] = [];
  if (!property.name) missing.push('property.name');
  const currency = property.currency ?? property.room_types.find((r) => r.currency)?.currency;
  if (!currency) missing.push('property.currency');
  if (!property.city) missing.push('property.city');
  const roomTypes = property.room_types.flatMap((room) => roomTypeSummary(room, missing) ?? []);
  if (roomTypes.length === 0) missing.push('property.room_types');
  if (!property.name || !currency || roomTypes.length === 0) return { value: undefined, missing };
  const capacity: Capacity = {
    maxAdults: Math.max(...roomTypes.map((r) => r.maxAdults)),
    maxChildren: Math.max(...roomTypes.map((r) => r.maxChildren)),
    maxOccupancy: Math.max(...roomTypes.map((r) => r.maxOccupancy)),
  };
  return {
    value: {
      id: String(property.id),
      name: property.name,
      /** ISO 4217 code prices are charged in (never guessed: without it, not bookable online). */
      currency,
      /** Null when the lodging API does not say. */
      city: property.city ?? null,
      ...(property.address ? { address: property.address } : {}),
      // Local check-in and check-out times ("15:00") and the IANA zone this runtime knows, if given.
      ...(property.check_in_time ? { checkInTime: property.check_in_time } : {}),
      ...(property.check_out_time ? { checkOutTime: property.check_out_time } : {}),
      ...(knownTimeZone(property.timezone) ? { timeZone: property.timezone } : {}),
      roomTypes,
      capacity,
    },
    missing: [...new Set(missing)],
  };
}

export type PropertySummary = NonNullable<ReturnType<typeof propertySummary>['value']>;

function knownTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A price the API sent as a decimal string, when it reads as a number. */
const amount = (value: string | null | undefined): number | undefined =>
  value != null && Number.isFinite(Number(value)) ? Number(value) : undefined;

/**
 * The stay's prices: `nightly`, the API's rates when there is one per night (else null); `total`, the
 * API's, else their sum, else its flat rate × nights (else unknown); `perNight`, the rate of every
 * night (the listed rates when all equal, else the flat rate; else null).
 */
function prices(
  given: Partial<Pick<RoomAvailability, 'nightly_rates' | 'total_price' | 'price_per_night'>>,
  nights: number,
) {
  const rates = given.nightly_rates?.length === nights ? given.nightly_rates.map(Number) : null;
  const nightly = rates?.every(Number.isFinite) ? rates : null;
  const flat = amount(given.price_per_night);
  const sum = nightly ? nightly.reduce((a, b) => a + b, 0) : flat && flat * nights;
  const total = amount(given.total_price) ?? (sum === undefined ? undefined : round2(sum));
  const same = nightly?.every((rate) => rate === nightly[0]);
  const perNight = nightly ? (same ? (nightly[0] ?? null) : null) : (flat ?? null);
  return { nightly, total, perNight };
}

/** The upstream's availability for `query`, as offers (a room too small for the party is not available). */
export function availabilityResult(
  place: PropertySummary,
  query: AvailabilityQuery,
  result: Availability,
) {
  const missing: string[] = [];
  const nights = nightsBetween(query.checkIn, query.checkOut);
  const currency = result.currency ?? place.currency;
  const rooms = result.room_types.flatMap((offer) => {
    const type = place.roomTypes.find((r) => r.id === String(offer.room_type_id));
    // A room type the property did not describe readably cannot be booked here.
    if (!type) return [];
    const maxOccupancy = offer.max_occupancy ?? type.maxOccupancy;
    const free =
      offer.available ?? (offer.available_rooms == null ? undefined : offer.available_rooms > 0);
    if (free === undefined) missing.push('availability.room_types[].available_rooms');
    const { nightly, total, perNight } = prices(offer, nights);
    if (total === undefined) missing.push('availability.room_types[].total_price');
    if (free === undefined || total === undefined) return [];
    return [
      {
        roomTypeId: type.id,
        name: offer.name ?? type.name,
        description: type.description,
        maxOccupancy,
        maxAdults: type.maxAdults,
        maxChildren: type.maxChildren,
        /** Free and big enough for this party. */
        available: free && fits({ ...type, maxOccupancy }, query.adults, query.children),
        availableRooms: offer.available_rooms ?? (free ? 1 : 0),
        /** The one rate every night costs; null when nights differ or only a total is known. */
        pricePerNight: perNight,
        /** One price per night, in order, when the API lists them (they may differ: weekend rates). */
        nightly,
        /** `totalPrice / nights`: shown as "average per night" when the nights' rates differ. */
        averageNightly: round2(total / nights),
        /** Always the API's total for the stay. */
        totalPrice: total,
        currency: offer.currency ?? currency,
      },
    ];
  });
  const value = {
    propertyId: place.id,
    checkIn: query.checkIn,
    checkOut: query.checkOut,
    nights,
    adults: query.adults,
    children: query.children,
    currency,
    rooms,
  };
  // Offers exist but none could be read: saying "nothing is free" would be a lie.
  const unreadable = result.room_types.length > 0 && rooms.length === 0;
  return { value: unreadable ? undefined : value, missing: [...new Set(missing)] };
}

export type AvailabilityResult = NonNullable<ReturnType<typeof availabilityResult>['value']>;
export type RoomOffer = AvailabilityResult['rooms'][number];

export function referenceOf(booking: Pick<Booking, 'reference' | 'id'>): string {
  return booking.reference ?? String(booking.id);
}

/** The booking as a confirmation; `input` fills in what its record leaves out. */
export function confirmationOf(
  place: PropertySummary,
  booking: Booking,
  input: Pick<BookingRequest, 'roomTypeId' | 'adults' | 'children'>,
) {
  const missing: string[] = [];
  const roomTypeId = String(booking.room_type_id ?? input.roomTypeId);
  const checkIn = booking.check_in;
  const checkOut = booking.check_out;
  const nights = booking.nights ?? nightsBetween(checkIn, checkOut);
  const { nightly_rates, total_price } = booking;
  const { nightly, total = null } = prices({ nightly_rates, total_price }, nights);
  if (total === null) missing.push('booking.total_price');
  if (!booking.reference) missing.push('booking.reference');
  return {
    value: {
      reference: referenceOf(booking),
      propertyId: place.id,
      propertyName: place.name,
      roomTypeId,
      roomName: place.roomTypes.find((r) => r.id === roomTypeId)?.name ?? roomTypeId,
      checkIn,
      checkOut,
      nights,
      adults: booking.adults ?? input.adults,
      children: booking.children ?? input.children,
      /** The API's total; null when its booking record carries none (then show no total). */
      totalPrice: total,
      nightly,
      averageNightly: total === null ? null : round2(total / nights),
      currency: booking.currency ?? place.currency,
      /** The lodging API's own word, e.g. `tentative`; `statusKind`, what it means to the guest. */
      status: booking.status,
      statusKind: statusKind(booking.status),
    },
    missing,
  };
}

export type Confirmation = ReturnType<typeof confirmationOf>['value'];

/** The guest record to create; `email` already normalised by the caller. */
export function guestInput(input: BookingRequest, email: string): GuestInput {
  const phone = normalizePhone(input.phone);
  return {
    first_name: input.firstName.trim(),
    last_name: input.lastName.trim(),
    email,
    ...(phone ? { phone } : {}),
    ...(input.nationality ? { nationality: input.nationality } : {}),
  };
}
