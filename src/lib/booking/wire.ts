import type {
  Availability,
  Booking,
  BookingInput,
  GuestInput,
  Property,
} from '../lodging/schema.ts';
import { nightsBetween } from './dates.ts';
import type { Capacity } from './rules.ts';
import { normalizePhone } from './rules.ts';
import type { AvailabilityQuery, BookingRequest } from './schema.ts';
import type { AvailabilityResult, Confirmation, PropertySummary, RoomOffer } from './types.ts';

/** Upstream lodging shapes ↔ the widget's wire format (types.ts). No calls, no errors. */

export function propertySummary(property: Property): PropertySummary {
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
    ...(property.address ? { address: property.address } : {}),
    ...(property.check_in_time ? { checkInTime: property.check_in_time } : {}),
    ...(property.check_out_time ? { checkOutTime: property.check_out_time } : {}),
    roomTypes,
    capacity,
  };
}

/** The upstream's availability for `query`, as offers (a room too small for the party is not available). */
export function availabilityResult(
  place: PropertySummary,
  query: AvailabilityQuery,
  result: Availability,
): AvailabilityResult {
  const guests = query.adults + query.children;
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

export function confirmationOf(
  place: PropertySummary,
  booking: Booking,
  input: BookingRequest,
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

export function bookingInput(
  place: PropertySummary,
  input: BookingRequest,
  guestId: string,
): BookingInput {
  return {
    property_id: place.id,
    room_type_id: input.roomTypeId,
    guest_id: guestId,
    check_in: input.checkIn,
    check_out: input.checkOut,
    adults: input.adults,
    children: input.children,
    ...(input.notes.trim() ? { notes: input.notes.trim() } : {}),
  };
}
