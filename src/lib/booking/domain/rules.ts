import type { FieldErrors } from '../../failures/fields.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { todayIn } from './dates.ts';
import { hasLookAlikeLetters, normalizeEmail } from './email.ts';
import { isCountryCode } from './countries.ts';
import { isEmailAddress } from '../../forms/email.ts';
import { MAX_NAME, MAX_NOTES, type GuestDetails } from './schema.ts';
import { textKey } from '../../i18n/text-key.ts';

/** Field rules of the booking form, after zod checked the shapes; messages are text keys. */

/** What a property's rooms can hold, from the largest room type. */
export interface Capacity {
  maxAdults: number;
  maxChildren: number;
  maxOccupancy: number;
}

/** Whether the party fits `room` (each limit apart and together). */
export const fits = (room: Capacity, adults: number, children: number): boolean =>
  adults <= room.maxAdults &&
  children <= room.maxChildren &&
  adults + children <= room.maxOccupancy;

/** A place as the party is checked against it: its name, its largest limits and its rooms. */
interface Rooms {
  name: string;
  capacity: Capacity;
  roomTypes: readonly Capacity[];
}

/** The party against one place's rooms; a refusal names the place (a tenant may have several). */
export function guestErrors(adults: number, children: number, rooms: Rooms): FieldErrors {
  const { capacity, name: place } = rooms;
  const errors: FieldErrors = {};
  // A fraction (`1.5`, crafted: the field takes whole numbers) is told so; an empty field (NaN) or 0
  // that an adult must stay.
  if (Number.isFinite(adults) && !Number.isInteger(adults))
    errors['adults'] = [textKey('booking.error.adultsCount')];
  else if (!(adults >= 1)) errors['adults'] = [textKey('booking.error.adultsMin')];
  else if (adults > capacity.maxAdults) {
    errors['adults'] = [textKey('booking.error.adultsMax', { count: capacity.maxAdults, place })];
  }
  if (!Number.isInteger(children)) errors['children'] = [textKey('booking.error.childrenCount')];
  else if (children < 0) errors['children'] = [textKey('booking.error.childrenMin')];
  else if (children > capacity.maxChildren) {
    errors['children'] = [
      textKey('booking.error.childrenMax', { count: capacity.maxChildren, place }),
    ];
  }
  if (!errors['adults'] && !errors['children'] && adults + children > capacity.maxOccupancy) {
    errors['children'] = [
      textKey('booking.error.guestsMax', { count: capacity.maxOccupancy, place }),
    ];
  }
  // Within each limit, yet no one room takes them all (the most adults and the most children are
  // in different rooms): the true reason, not "nothing free" after the search.
  if (!hasErrors(errors) && !rooms.roomTypes.some((room) => fits(room, adults, children))) {
    errors[children > 0 ? 'children' : 'adults'] = [
      textKey('booking.error.partyNoRoom', { place }),
    ];
  }
  return errors;
}

/**
 * Spaces, dashes, dots and brackets people type in phone numbers, and the trunk `(0)` of
 * `+44 (0)20 …`, which is not dialled after the country code.
 */
export function normalizePhone(value: string): string {
  return value.replace(/\(\s*0\s*\)/g, '').replace(/[\s\-.()]/g, '');
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** The lodging API's own rules for optional fields (tenants.json `lodging.fields`). */
type FieldRules = NonNullable<Tenant['lodging']>['fields'];

/** How the details form presents the optional fields under the tenant's rules (labels, limits). */
export function detailsPresentation(rules: FieldRules = {}) {
  return {
    phoneRequired: rules.phone?.required === true,
    nationalityRequired: rules.nationality?.required === true,
    notesRequired: rules.notes?.required === true,
    notesMax: Math.min(MAX_NOTES, rules.notes?.maxLength ?? MAX_NOTES),
  } as const;
}

/** `text` without what shows nothing (spaces, zero-width and direction marks): '' for a blank field. */
const visible = (text: string): string =>
  text.replace(/\p{Default_Ignorable_Code_Point}/gu, '').trim();

/** The server's checks of the guest's details, with their tables (countries, look-alike letters). */
export function detailsErrors(input: GuestDetails, rules: FieldRules = {}): FieldErrors {
  const errors: FieldErrors = {};
  const name = (field: 'firstName' | 'lastName'): void => {
    const value = input[field].trim();
    if (!visible(value)) errors[field] = [textKey(`booking.error.${field}Required`)];
    else if (value.length > MAX_NAME)
      errors[field] = [textKey(`booking.error.${field}TooLong`, { max: MAX_NAME })];
  };
  name('firstName');
  name('lastName');
  const email = normalizeEmail(input.email);
  if (!email) errors['email'] = [textKey('booking.error.emailRequired')];
  else if (!isEmailAddress(email) || email.length > 254) {
    errors['email'] = [textKey('booking.error.emailInvalid')];
  } else if (hasLookAlikeLetters(email)) {
    errors['email'] = [textKey('booking.error.emailLookAlike')];
  }
  const phone = normalizePhone(input.phone);
  if (!phone && rules.phone?.required) errors['phone'] = [textKey('booking.error.phoneRequired')];
  else if (phone && !E164.test(phone)) {
    errors['phone'] = [textKey('booking.error.phoneInvalid')];
  }
  if (!input.nationality && rules.nationality?.required) {
    errors['nationality'] = [textKey('booking.error.countryRequired')];
  } else if (input.nationality && !isCountryCode(input.nationality)) {
    errors['nationality'] = [textKey('booking.error.countryInvalid')];
  }
  const maxNotes = detailsPresentation(rules).notesMax;
  if (!visible(input.notes) && rules.notes?.required)
    errors['notes'] = [textKey('booking.error.notesRequired')];
  else if (input.notes.length > maxNotes) {
    errors['notes'] = [textKey('booking.error.notesTooLong', { max: maxNotes })];
  }
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/**
 * Whether a stay's check-in day has begun in `timeZone` (the property's, else the tenant's): from
 * then on it is no longer cancelled online (the guest asks the hotel).
 */
export const stayBegun = (checkIn: string, timeZone: string, now: Date = new Date()): boolean =>
  checkIn <= todayIn(timeZone, now);
