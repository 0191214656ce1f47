import { laravelDate, laravelTime } from '../lib/dates.ts';
import type { Booking, Guest, LodgingData, Property, RoomType } from './model.ts';
import { freeRooms, nightlyRates, price } from './rules.ts';

/**
 * JSON shapes of the alt dialect (docs/api-assumptions.md, "Dialects"): bare models as a Laravel
 * controller returns them, dates cast to timestamps, money as JSON numbers, relations embedded.
 */

const money = (decimal: string) => Number(decimal);

const capacity = (r: RoomType) => ({
  adults: r.maxAdults,
  children: r.maxChildren,
  total: r.maxOccupancy,
});

export const altRoomType = (r: RoomType) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  capacity: capacity(r),
  rate: money(r.basePrice),
  weekend_rate: r.weekendPrice === null ? null : money(r.weekendPrice),
  units: r.totalRooms,
});

export const altProperty = (p: Property) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  address: { street: p.address, city: p.city, postcode: p.postcode, country: p.country },
  timezone: p.timezone,
  currency_code: p.currency,
  check_in_from: `${p.checkInTime}:00`,
  check_out_until: `${p.checkOutTime}:00`,
  room_types: p.roomTypes.map(altRoomType),
});

const rates = (r: RoomType, checkIn: string, checkOut: string) =>
  nightlyRates(r, checkIn, checkOut).map((n) => ({ date: n.date, rate: money(n.price) }));

/**
 * Every room type with its free units (a SQL aggregate, so a numeric string) and nightly rates;
 * no `available` flag: free units > 0 and `guests` ≤ `capacity.total` is what bookable means.
 */
export function altAvailability(
  data: LodgingData,
  p: Property,
  q: { check_in: string; check_out: string; guests: number; nights: number },
) {
  return {
    property_id: p.id,
    period: { check_in: q.check_in, check_out: q.check_out, nights: q.nights },
    guests: q.guests,
    currency_code: p.currency,
    rooms: p.roomTypes.map((r) => {
      const nightly = rates(r, q.check_in, q.check_out);
      return {
        room_type_id: r.id,
        name: r.name,
        capacity: capacity(r),
        units_available: String(freeRooms(data, r, q.check_in, q.check_out)),
        nightly_rates: nightly,
        total: money(price(r, q.check_in, q.check_out)),
      };
    }),
  };
}

export function altBooking(data: LodgingData, b: Booking) {
  const p = data.properties.find((x) => x.id === b.propertyId);
  const r = p?.roomTypes.find((x) => x.id === b.roomTypeId);
  const g = data.guests.find((x) => x.id === b.guestId);
  return {
    id: b.id,
    confirmation_code: b.reference,
    property_id: b.propertyId,
    room_type_id: b.roomTypeId,
    guest_id: b.guestId,
    check_in: laravelDate(b.checkIn),
    check_out: laravelDate(b.checkOut),
    adults: b.adults,
    children: b.children,
    notes: b.notes,
    status: b.status,
    total_amount: money(b.totalPrice),
    currency_code: b.currency,
    nightly_rates: r ? rates(r, b.checkIn, b.checkOut) : [],
    guest: g
      ? { id: g.id, first_name: g.first_name, last_name: g.last_name, email: g.email }
      : null,
    created_at: laravelTime(b.createdAt),
    updated_at: laravelTime(b.updatedAt),
  };
}

export const altGuest = (g: Guest) => ({
  id: g.id,
  first_name: g.first_name,
  last_name: g.last_name,
  full_name: `${g.first_name} ${g.last_name}`,
  email: g.email,
  phone: g.phone,
  nationality: g.nationality,
  created_at: laravelTime(g.createdAt),
  updated_at: laravelTime(g.updatedAt),
});
