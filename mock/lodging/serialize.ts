import { nightsBetween } from '../lib/dates.ts';
import type { Booking, Guest, Property, RoomType } from './model.ts';

/** JSON shapes of the lodging service (docs/api-assumptions.md). */
export const roomType = (r: RoomType, currency: string) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  max_adults: r.maxAdults,
  max_children: r.maxChildren,
  max_occupancy: r.maxOccupancy,
  base_price: r.basePrice,
  currency,
  total_rooms: r.totalRooms,
});

export const property = (p: Property) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  address: p.address,
  city: p.city,
  country: p.country,
  timezone: p.timezone,
  currency: p.currency,
  check_in_time: p.checkInTime,
  check_out_time: p.checkOutTime,
  room_types: p.roomTypes.map((r) => roomType(r, p.currency)),
});

export const booking = (b: Booking) => ({
  id: b.id,
  reference: b.reference,
  property_id: b.propertyId,
  room_type_id: b.roomTypeId,
  guest_id: b.guestId,
  check_in: b.checkIn,
  check_out: b.checkOut,
  nights: nightsBetween(b.checkIn, b.checkOut),
  adults: b.adults,
  children: b.children,
  notes: b.notes,
  status: b.status,
  total_price: b.totalPrice,
  currency: b.currency,
  created_at: b.createdAt,
  updated_at: b.updatedAt,
});

export const guest = (g: Guest) => ({
  id: g.id,
  first_name: g.first_name,
  last_name: g.last_name,
  email: g.email,
  phone: g.phone,
  nationality: g.nationality,
  created_at: g.createdAt,
  updated_at: g.updatedAt,
});
