import { stayLinkSchema } from './schema.ts';
import type { PropertySummary } from './types.ts';

/** What a link to /stay fills in before the guest does anything (the widget's `initial`). */
export interface StayPrefill {
  propertyId?: string;
  checkIn?: string;
  checkOut?: string;
  adults?: number;
  children?: number;
}

/** The stay a link names, with only the values that can be read and a property this page lists. */
export function stayPrefill(params: URLSearchParams, properties: PropertySummary[]): StayPrefill {
  const link = stayLinkSchema.parse(Object.fromEntries(params));
  const property = properties.find((p) => p.id === link.property);
  return {
    ...(property ? { propertyId: property.id } : {}),
    ...(link.checkIn ? { checkIn: link.checkIn } : {}),
    ...(link.checkOut ? { checkOut: link.checkOut } : {}),
    ...(link.adults !== undefined ? { adults: link.adults } : {}),
    ...(link.children !== undefined ? { children: link.children } : {}),
  };
}
