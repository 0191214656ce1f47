import { plural } from './dates.ts';
import type { FieldErrors } from '../failures/fields.ts';
import type { GuestDetails } from './schema.ts';

/**
 * Field rules of the booking form, shared by the widget (instant messages) and the server (which
 * applies them again after zod has checked the shapes). Keys are the widget's field names.
 */

/** What a property's rooms can hold, from the largest room type. */
export interface Capacity {
  maxAdults: number;
  maxChildren: number;
  maxOccupancy: number;
}

export const MAX_NAME = 100;
export const MAX_NOTES = 1000;

export function guestErrors(adults: number, children: number, capacity: Capacity): FieldErrors {
  const errors: FieldErrors = {};
  if (!Number.isInteger(adults) || adults < 1) errors['adults'] = ['At least one adult must stay.'];
  else if (adults > capacity.maxAdults) {
    errors['adults'] = [`Our rooms take at most ${plural(capacity.maxAdults, 'adult')}.`];
  }
  if (!Number.isInteger(children) || children < 0) {
    errors['children'] = ['Enter 0 or more children.'];
  } else if (children > capacity.maxChildren) {
    errors['children'] = [
      `Our rooms take at most ${plural(capacity.maxChildren, 'child', 'children')}.`,
    ];
  }
  if (!errors['adults'] && !errors['children'] && adults + children > capacity.maxOccupancy) {
    errors['children'] = [`Our rooms sleep at most ${plural(capacity.maxOccupancy, 'guest')}.`];
  }
  return errors;
}

/** Spaces, dashes, dots and brackets people type in phone numbers. */
export function normalizePhone(value: string): string {
  return value.replace(/[\s\-.()]/g, '');
}

const E164 = /^\+[1-9]\d{6,14}$/;
// Deliberately loose: one @, a dot in the domain, no spaces (the upstream checks again).
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The lodging API's own rules for optional fields (tenants.json `lodging.fields`). */
export interface FieldRules {
  phone?: { required?: boolean | undefined; maxLength?: number | undefined } | undefined;
  nationality?: { required?: boolean | undefined } | undefined;
  notes?: { required?: boolean | undefined; maxLength?: number | undefined } | undefined;
}

/** How the details form presents the optional fields under the tenant's rules (labels, limits). */
export function detailsPresentation(rules: FieldRules = {}) {
  return {
    phoneRequired: rules.phone?.required === true,
    nationalityRequired: rules.nationality?.required === true,
    notesRequired: rules.notes?.required === true,
    notesMax: Math.min(MAX_NOTES, rules.notes?.maxLength ?? MAX_NOTES),
  } as const;
}

export function detailsErrors(
  input: GuestDetails,
  isCountry: (code: string) => boolean = (code) => /^[A-Z]{2}$/.test(code),
  rules: FieldRules = {},
): FieldErrors {
  const errors: FieldErrors = {};
  const name = (field: 'firstName' | 'lastName', label: string): void => {
    const value = input[field].trim();
    if (!value) errors[field] = [`Enter your ${label}.`];
    else if (value.length > MAX_NAME)
      errors[field] = [`Keep the ${label} under ${MAX_NAME} characters.`];
  };
  name('firstName', 'first name');
  name('lastName', 'last name');
  const email = input.email.trim();
  if (!email) errors['email'] = ['Enter your e-mail address.'];
  else if (!EMAIL.test(email) || email.length > 254) {
    errors['email'] = ['Enter an e-mail address such as name@example.com.'];
  }
  const phone = normalizePhone(input.phone);
  if (!phone && rules.phone?.required) errors['phone'] = ['Enter a phone number.'];
  else if (phone && !E164.test(phone)) {
    errors['phone'] = ['Enter the phone number in international format, such as +44 20 7946 0958.'];
  }
  if (!input.nationality && rules.nationality?.required) {
    errors['nationality'] = ['Choose your country.'];
  } else if (input.nationality && !isCountry(input.nationality)) {
    errors['nationality'] = ['Choose a country from the list.'];
  }
  const maxNotes = Math.min(MAX_NOTES, rules.notes?.maxLength ?? MAX_NOTES);
  if (!input.notes.trim() && rules.notes?.required) errors['notes'] = ['Please add a note.'];
  else if (input.notes.length > maxNotes) {
    errors['notes'] = [`Keep the notes under ${maxNotes} characters.`];
  }
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}
