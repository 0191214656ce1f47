import type { AvailabilityResult, Confirmation } from '../service/lodging-shapes.ts';

/**
 * What a partner page hears of a stay (docs/booking-partners.md): these fields only, so a guest's
 * name, e-mail or phone number never leaves the frame.
 */
export const searchFacts = (offers: AvailabilityResult) => {
  const { propertyId, checkIn, checkOut, nights, adults, children } = offers;
  return { propertyId, checkIn, checkOut, nights, adults, children };
};

export const bookedFacts = (confirmation: Confirmation) => {
  const { reference, propertyId, roomTypeId, checkIn, checkOut, nights, totalPrice, currency } =
    confirmation;
  return { reference, propertyId, roomTypeId, checkIn, checkOut, nights, totalPrice, currency };
};
