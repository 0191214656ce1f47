import { isCountryCode } from './countries.ts';
import { hasLookAlikeLetters } from './email.ts';
import type { DetailsChecks } from './rules.ts';

/** Every check of a guest's details, with its tables: what the server runs before a booking. */
export const SERVER_CHECKS: DetailsChecks = {
  isCountry: isCountryCode,
  hasLookAlike: hasLookAlikeLetters,
};
