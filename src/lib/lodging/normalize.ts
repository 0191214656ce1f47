/**
 * Maps the other plausible spellings of lodging fields the contract leaves "not shown" onto one
 * set of names (the default dialect's), before zod reads them. Each rule is one line so the list
 * reads as documentation: `docs/api-assumptions.md`, "Dialects", has the pairs.
 */

import { isRecord } from '../content/records.ts';

type Raw = Record<string, unknown>;

/** The first of `names` that `raw` has (not null or undefined). */
function first(raw: Raw, ...names: string[]): unknown {
  for (const name of names) if (raw[name] !== undefined && raw[name] !== null) return raw[name];
  return undefined;
}

/** `"2026-12-04T00:00:00.000000Z"` (a date cast) → `"2026-12-04"`; anything else as it came. */
export function dateOnly(value: unknown): unknown {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)
    ? value.slice(0, 10)
    : value;
}

/** `"15:00:00"` (SQL TIME) → `"15:00"`. */
function timeOfDay(value: unknown): unknown {
  return typeof value === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(value) ? value.slice(0, 5) : value;
}

/** `[{ date, rate }]`, `[{ date, price }]` or `[119.5, …]` → rates as given (numbers or strings). */
function nightlyRates(value: unknown): unknown {
  if (!Array.isArray(value)) return undefined;
  return (value as unknown[]).map((night) =>
    isRecord(night) ? first(night, 'rate', 'price', 'amount', 'total') : night,
  );
}

export function roomTypeFields(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const capacity = isRecord(raw['capacity']) ? raw['capacity'] : {};
  return {
    ...raw,
    max_adults: first(raw, 'max_adults') ?? first(capacity, 'adults', 'max_adults'),
    max_children: first(raw, 'max_children') ?? first(capacity, 'children', 'max_children'),
    max_occupancy:
      first(raw, 'max_occupancy', 'max_guests') ??
      first(capacity, 'total', 'max_occupancy', 'guests') ??
      (typeof raw['capacity'] === 'number' || typeof raw['capacity'] === 'string'
        ? raw['capacity']
        : undefined),
    base_price: first(raw, 'base_price', 'rate', 'price'),
    currency: first(raw, 'currency', 'currency_code'),
    total_rooms: first(raw, 'total_rooms', 'units', 'rooms_count'),
  };
}

export function propertyFields(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const address = isRecord(raw['address']) ? raw['address'] : undefined;
  return {
    ...raw,
    address: address
      ? (first(address, 'street', 'line1', 'address_line_1', 'line_1') ?? null)
      : raw['address'],
    city: first(raw, 'city') ?? (address && first(address, 'city', 'town', 'locality')),
    country: first(raw, 'country') ?? (address && first(address, 'country', 'country_code')),
    currency: first(raw, 'currency', 'currency_code'),
    check_in_time: timeOfDay(first(raw, 'check_in_time', 'check_in_from')),
    check_out_time: timeOfDay(first(raw, 'check_out_time', 'check_out_until')),
    room_types: first(raw, 'room_types', 'rooms', 'roomTypes'),
  };
}

function roomOfferFields(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const capacity = isRecord(raw['capacity']) ? raw['capacity'] : {};
  return {
    ...raw,
    room_type_id: first(raw, 'room_type_id', 'id'),
    max_occupancy: first(raw, 'max_occupancy') ?? first(capacity, 'total', 'max_occupancy'),
    available_rooms: first(raw, 'available_rooms', 'units_available', 'available_units'),
    price_per_night: first(raw, 'price_per_night', 'rate', 'average_rate'),
    total_price: first(raw, 'total_price', 'total', 'total_amount'),
    currency: first(raw, 'currency', 'currency_code'),
    nightly_rates: nightlyRates(first(raw, 'nightly_rates', 'nights', 'rates')),
  };
}

export function availabilityFields(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const period = isRecord(raw['period']) ? raw['period'] : {};
  const rooms = first(raw, 'room_types', 'rooms');
  return {
    ...raw,
    check_in: dateOnly(first(raw, 'check_in') ?? first(period, 'check_in')),
    check_out: dateOnly(first(raw, 'check_out') ?? first(period, 'check_out')),
    nights: first(raw, 'nights') ?? first(period, 'nights'),
    currency: first(raw, 'currency', 'currency_code'),
    room_types: Array.isArray(rooms) ? rooms.map(roomOfferFields) : rooms,
  };
}

export function bookingFields(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const guest = isRecord(raw['guest']) ? raw['guest'] : undefined;
  return {
    ...raw,
    reference: first(raw, 'reference', 'confirmation_code', 'booking_reference', 'code'),
    guest_id: first(raw, 'guest_id') ?? (guest && guest['id']),
    check_in: dateOnly(raw['check_in']),
    check_out: dateOnly(raw['check_out']),
    total_price: first(raw, 'total_price', 'total_amount', 'total'),
    currency: first(raw, 'currency', 'currency_code'),
    nightly_rates: nightlyRates(first(raw, 'nightly_rates', 'rates')),
  };
}
