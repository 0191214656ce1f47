import { domainToUnicode } from 'node:url';
import { isCountryCode } from './countries.ts';
import { hasLookAlikeLetters } from './email.ts';
import type { DetailsChecks } from './rules.ts';

/**
 * The address with its domain in Unicode: browsers send an `<input type="email">`'s international
 * domain as punycode (`exаmple.com` with a Cyrillic "а" arrives as `xn--exmple-4nf.com`), where no
 * look-alike letter shows.
 */
export function withUnicodeDomain(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  if (at < 0 || !/(^|\.)xn--/i.test(domain)) return email;
  const unicode = domainToUnicode(domain);
  return unicode ? `${email.slice(0, at)}@${unicode}` : email;
}

/** Every check of a guest's details, with its tables: what the server runs before a booking. */
export const SERVER_CHECKS: DetailsChecks = {
  isCountry: isCountryCode,
  hasLookAlike: (email) => hasLookAlikeLetters(withUnicodeDomain(email)),
};
