import { formatPrice } from '../../i18n/format.ts';
import type { Say } from '../../i18n/say.ts';
import type { Capacity } from '../domain/rules.ts';
import type { AvailabilityResult, RoomOffer } from '../service/lodging-shapes.ts';

/** What a room card says: its capacity as the rules word it, its prices, or why it cannot be chosen. */

export interface RoomFacts {
  /** "Sleeps 3, at most 2 adults"; absent when `why` already names the capacity. */
  capacity?: string;
  /** Why the room cannot be chosen (too small for the party, sold out). */
  why?: string;
  perNight?: string;
  total?: string;
  /** "only 2 left", when few are. */
  left?: string;
}

/** "Sleeps 4", "Sleeps 3, at most 2 adults" or "Sleeps 1 adult, no children": never more than the rules allow. */
export function capacityText(room: Capacity, say: Say): string {
  const adults = say('adults', { count: room.maxAdults });
  if (room.maxChildren === 0) return say('capacityNoChildren', { adults });
  if (room.maxAdults < room.maxOccupancy)
    return say('capacityAdults', { count: room.maxOccupancy, adults });
  return say('capacity', { count: room.maxOccupancy });
}

/** Few enough left to say so. */
const FEW_LEFT = 3;

export function roomFacts(
  room: RoomOffer,
  party: Pick<AvailabilityResult, 'adults' | 'children'>,
  say: Say,
  locale: string,
): RoomFacts {
  const guests = party.adults + party.children;
  // "Sleeps 2: you are 3" already names the capacity.
  if (guests > room.maxOccupancy)
    return { why: say('sleepsYouAre', { max: room.maxOccupancy, count: guests }) };
  const capacity = capacityText(room, say);
  if (party.adults > room.maxAdults)
    return { capacity, why: say('adultsOnly', { count: room.maxAdults }) };
  if (party.children > room.maxChildren)
    return {
      capacity,
      why:
        room.maxChildren === 0
          ? say('noChildren')
          : say('fewerChildren', { count: room.maxChildren }),
    };
  if (!room.available) return { capacity, why: say('soldOut') };
  // The rate when every night costs the same, else the average, labelled so (weekend rates).
  const average = room.pricePerNight === null;
  const perNight = formatPrice(room.pricePerNight ?? room.averageNightly, room.currency, locale);
  return {
    capacity,
    perNight: say(average ? 'priceAverage' : 'pricePerNight', { price: perNight }),
    total: say('priceTotal', { price: formatPrice(room.totalPrice, room.currency, locale) }),
    ...(room.availableRooms > 0 && room.availableRooms <= FEW_LEFT
      ? { left: say('left', { count: room.availableRooms }) }
      : {}),
  };
}
