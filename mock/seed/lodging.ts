import { addDays, isoDate, isoTime } from '../lib/dates.ts';
import type { Dialect } from '../lib/dialect.ts';
import { createRng, type Rng } from '../lib/prng.ts';
import type { Booking, BookingStatus, Guest, LodgingData, Property } from '../lodging/model.ts';
import { price } from '../lodging/rules.ts';
import {
  accountId,
  accountUserId,
  apiTokens,
  DEMO_PASSWORD,
  LODGING_ACCOUNTS,
  propertyId,
  roomTypeId,
} from './accounts.ts';
import { toAltDialect } from './lodging-alt.ts';

const FIRST = [
  'Emma',
  'Lukas',
  'Sofia',
  'Noah',
  'Mila',
  'Jonas',
  'Chloé',
  'Mateo',
  'Freya',
  'Luca',
  'Ingrid',
  'Yusuf',
  'Hana',
  'Oliver',
];
const LAST = [
  'Meier',
  'de Jong',
  'Rossi',
  'Schmid',
  'Dubois',
  'Jensen',
  'García',
  'Keller',
  'Novak',
  'Berg',
  'Okafor',
  'Tanaka',
];
const NATIONS: [string, string][] = [
  ['NL', '+31'],
  ['DE', '+49'],
  ['CH', '+41'],
  ['FR', '+33'],
  ['IT', '+39'],
  ['GB', '+44'],
  ['US', '+1'],
  ['DK', '+45'],
];

/** Sequential-looking booking reference: `BK-` and six characters. */
const reference = (rng: Rng) => `BK-${rng.chars(6).toUpperCase()}`;

function guests(rng: Rng, acc: string, now: Date): Guest[] {
  const seen = new Set<string>();
  return Array.from({ length: 24 }, () => {
    let first = rng.pick(FIRST);
    let last = rng.pick(LAST);
    while (seen.has(`${first} ${last}`)) [first, last] = [rng.pick(FIRST), rng.pick(LAST)];
    seen.add(`${first} ${last}`);
    const [nation, prefix] = rng.pick(NATIONS);
    const created = isoTime(addDays(now, -rng.int(30, 400)));
    const mail = `${first}.${last}`
      .normalize('NFKD')
      .replace(/[^\w.]/g, '')
      .toLowerCase();
    return {
      id: rng.uuid(),
      accountId: acc,
      first_name: first,
      last_name: last,
      email: `${mail}@example.com`,
      phone: rng.chance(0.85) ? `${prefix}${rng.int(100000000, 999999999)}` : null,
      nationality: rng.chance(0.9) ? nation : null,
      createdAt: created,
      updatedAt: created,
    };
  });
}

/** Bookings mostly in the next weeks, a few finished ones; never overbooks a room type. */
function bookings(rng: Rng, acc: string, props: Property[], gs: Guest[], now: Date): Booking[] {
  const list: Booking[] = [];
  for (let i = 0; i < 30; i++) {
    const p = rng.pick(props);
    const rt = rng.pick(p.roomTypes);
    const past = i < 5;
    const start = addDays(now, past ? -rng.int(10, 40) : rng.int(1, 45));
    const checkIn = isoDate(start);
    const checkOut = isoDate(addDays(start, rng.int(1, 7)));
    const status: BookingStatus = past
      ? rng.pick(['checked_out', 'checked_out', 'no_show'] as const)
      : rng.pick(['pending', 'confirmed', 'confirmed', 'confirmed', 'cancelled'] as const);
    const overlapping = list.filter(
      (b) =>
        b.roomTypeId === rt.id &&
        ['pending', 'confirmed', 'checked_in'].includes(b.status) &&
        b.checkIn < checkOut &&
        checkIn < b.checkOut,
    ).length;
    if (!past && overlapping >= rt.totalRooms - 1) continue; // keep at least one room free
    const adults = rng.int(1, rt.maxAdults);
    const children = rng.int(0, Math.min(rt.maxChildren, rt.maxOccupancy - adults));
    const created = isoTime(addDays(start, -rng.int(3, 60)));
    list.push({
      id: rng.uuid(),
      accountId: acc,
      reference: reference(rng),
      propertyId: p.id,
      roomTypeId: rt.id,
      guestId: rng.pick(gs).id,
      checkIn,
      checkOut,
      adults,
      children,
      notes: rng.chance(0.3)
        ? rng.pick([
            'Late arrival, around 22:00.',
            'Vegetarian breakfast please.',
            'Travelling with a small dog.',
            'Anniversary trip.',
          ])
        : null,
      status,
      totalPrice: price(rt, checkIn, checkOut),
      currency: p.currency,
      createdAt: created,
      updatedAt: created,
    });
  }
  return list;
}

export function seedLodging(seed: number, now: Date, dialect: Dialect = 'default'): LodgingData {
  const data: LodgingData = {
    users: [],
    properties: [],
    guests: [],
    bookings: [],
    tokens: new Map(),
  };
  LODGING_ACCOUNTS.forEach((a, ai) => {
    const rng = createRng(seed * 97 + ai);
    const acc = accountId(a.slug);
    const userId = accountUserId(a.slug);
    data.users.push({
      id: userId,
      accountId: acc,
      name: a.userName,
      email: a.email,
      password: DEMO_PASSWORD,
    });
    const props: Property[] = a.properties.map((p, pi) => ({
      id: propertyId(a.slug, pi),
      accountId: acc,
      name: p.name,
      description: p.description,
      address: p.address,
      postcode: p.postcode,
      city: p.city,
      country: p.country,
      timezone: p.timezone,
      currency: a.currency,
      checkInTime: '15:00',
      checkOutTime: '11:00',
      roomTypes: p.roomTypes.map((r, ri) => ({
        id: roomTypeId(a.slug, pi, ri),
        ...r,
        weekendPrice: null,
      })),
    }));
    const gs = guests(rng, acc, now);
    data.properties.push(...props);
    data.guests.push(...gs);
    data.bookings.push(...bookings(rng, acc, props, gs, now));
    const tokens = apiTokens(a.slug);
    data.tokens.set(tokens.read, {
      token: tokens.read,
      accountId: acc,
      userId,
      abilities: ['read'],
    });
    data.tokens.set(tokens.full, { token: tokens.full, accountId: acc, userId, abilities: ['*'] });
  });
  if (dialect === 'alt') toAltDialect(data);
  return data;
}
