import type { AvailabilityResult, Confirmation } from '../domain/types.ts';

/**
 * What a partner page hears of a stay (docs/booking-partners.md): the listed fields only, so a
 * guest's name, e-mail or phone number never leaves the frame.
 */
const SEARCH_FIELDS = [
  'propertyId',
  'checkIn',
  'checkOut',
  'nights',
  'adults',
  'children',
] as const;
const BOOKED_FIELDS = [
  'reference',
  'propertyId',
  'roomTypeId',
  'checkIn',
  'checkOut',
  'nights',
  'totalPrice',
  'currency',
] as const;

/** `source`'s `fields`, in that order (a search's facts also serve as its once-only key). */
function only<Source, Field extends keyof Source>(
  source: Source,
  fields: readonly Field[],
): Pick<Source, Field> {
  return Object.fromEntries(fields.map((field) => [field, source[field]])) as Pick<Source, Field>;
}

export type SearchFacts = Pick<AvailabilityResult, (typeof SEARCH_FIELDS)[number]>;
export type BookedFacts = Pick<Confirmation, (typeof BOOKED_FIELDS)[number]>;

export const searchFacts = (offers: AvailabilityResult): SearchFacts => only(offers, SEARCH_FIELDS);
export const bookedFacts = (confirmation: Confirmation): BookedFacts =>
  only(confirmation, BOOKED_FIELDS);
