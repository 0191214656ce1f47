import { domainToUnicode } from 'node:url';
import unhomoglyph from 'unhomoglyph';
import { straightenPunctuation } from '../../forms/email.ts';

/**
 * One spelling per e-mail address before any comparison (guest look-up, creation lock, idempotency),
 * so `Zed-x@Example.com`, the same with invisible characters, and `zed-x@example.com.` are one
 * guest; and the check that refuses look-alike letters (a Cyrillic "а" in `exаmple.com`), which
 * would make another guest that reads the same (`detailsErrors` runs it).
 */

/** Code points that show nothing (zero-width spaces, direction marks, variation selectors, tags…). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Lower case, Unicode NFKC (full-width and compatibility forms), no invisible characters, no trailing
 * dot, straight quotes and dashes, the domain in Unicode: Chromium sends an e-mail field's `bücher.de` as `xn--bcher-kva.de`,
 * Firefox and partners' JSON as typed; both are one guest (and the look-alike check reads the letters).
 */
export function normalizeEmail(raw: string): string {
  // Removed before and after NFKC and lower case: each can bring letters together that a removed
  // mark kept apart, or (rarely) make an ignorable one; the result is the same when run again.
  const folded = raw
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKC')
    .replace(INVISIBLE, '');
  const plain = straightenPunctuation(folded).trim();
  const at = plain.lastIndexOf('@');
  if (at < 0) return plain;
  // `example.com.` is the same (fully qualified) domain as `example.com`.
  const domain = plain.slice(at + 1).replace(/\.+$/, '');
  const unicode = /(^|\.)xn--/.test(domain) && domainToUnicode(domain);
  return `${plain.slice(0, at)}@${unicode || domain}`;
}

/** Scripts with letters that pass for Latin ones. */
const CONFUSABLE_SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
const LATIN = /\p{Script=Latin}/u;
const ASCII = /^[\x20-\x7E]*$/;
const ASCII_ALNUM = /[a-z0-9]/;

/**
 * UTS #39's skeleton (NFD, each character mapped to its prototype in Unicode's confusables.txt,
 * NFD): two strings that look alike have the same one. `unhomoglyph` carries that table.
 */
export const skeleton = (text: string): string =>
  unhomoglyph(text.normalize('NFD')).normalize('NFD');

/**
 * True when a part of the address (the local part, each domain label) could pass for another:
 * - it mixes Latin with a script whose letters pass for Latin ones (`exаmple` with a Cyrillic "а");
 * - it is not ASCII, yet its skeleton is (`аррӏе` in Cyrillic, `zed-ɑ`, `zed-ı`, `zed-ǀ`);
 * - among ASCII letters, it has a character whose own skeleton is ASCII (`müller-ɑ`).
 * A real address in another script (`иван@пример.рф`) or with accents (`josé`) passes. Unicode's
 * table also counts ligatures (`æ` is "ae") and the dotless "ı" as look-alikes: such addresses are
 * refused rather than made a second guest, since the guest's identity is their address.
 */
export function hasLookAlikeLetters(email: string): boolean {
  const at = email.lastIndexOf('@');
  const parts = [email.slice(0, Math.max(0, at)), ...email.slice(at + 1).split('.')];
  return parts.some((part) => {
    if (ASCII.test(part)) return false;
    if (ASCII.test(skeleton(part))) return true;
    const characters = [...part.normalize('NFC')];
    const letters = characters.filter((c) => /\p{L}/u.test(c));
    if (letters.some((c) => CONFUSABLE_SCRIPT.test(c)) && letters.some((c) => LATIN.test(c))) {
      return true;
    }
    return (
      ASCII_ALNUM.test(part) && characters.some((c) => !ASCII.test(c) && ASCII.test(skeleton(c)))
    );
  });
}
