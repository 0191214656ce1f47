import { addDays, isIsoDate } from './dates.ts';
import { stayLinkSchema, type StayLink } from './schema.ts';
import type { PropertySummary } from './types.ts';

/** What a link to /stay (or an embed's `data-*`) fills in before the guest does anything. */
export interface StayPrefill {
  propertyId?: string;
  checkIn?: string;
  checkOut?: string;
  adults?: number;
  children?: number;
  roomTypeId?: string;
}

/** The stay a link names, with only the values that can be read and a property this page lists. */
export function stayPrefill(params: URLSearchParams, properties: PropertySummary[]): StayPrefill {
  return prefillOf(stayLinkSchema.parse(Object.fromEntries(params)), properties);
}

/** `nights` gives the check-out when none is named; a room counts only on the property named. */
export function prefillOf(link: StayLink, properties: PropertySummary[]): StayPrefill {
  const property = properties.find((p) => p.id === link.property);
  const checkOut =
    link.checkOut ??
    (link.checkIn && isIsoDate(link.checkIn) && link.nights
      ? addDays(link.checkIn, link.nights)
      : undefined);
  const room = property?.roomTypes.find((r) => r.id === link.room);
  return {
    ...(property ? { propertyId: property.id } : {}),
    ...(link.checkIn ? { checkIn: link.checkIn } : {}),
    ...(checkOut ? { checkOut } : {}),
    ...(link.adults !== undefined ? { adults: link.adults } : {}),
    ...(link.children !== undefined ? { children: link.children } : {}),
    ...(room ? { roomTypeId: room.id } : {}),
  };
}
