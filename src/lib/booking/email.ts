/**
 * One spelling per e-mail address, applied before any comparison (guest look-up, creation lock,
 * idempotency), so `Zed-x@Example.com`, the same with a zero-width space and `zed-x@example.com.`
 * are one guest; and the check that refuses look-alike letters from other scripts (a Cyrillic "а"
 * in `exаmple.com`), which would make another guest that reads the same. The spelling runs in the
 * widget too; the server alone refuses look-alikes (server-checks.ts, which also reads punycode).
 */

/** Characters that show nothing: zero-width spaces and joiners, soft hyphen, direction marks, BOM. */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]/g;

/** Lower case, Unicode NFKC (full-width and compatibility forms), no invisible characters, no trailing dot. */
export function normalizeEmail(raw: string): string {
  const plain = raw.normalize('NFKC').replace(INVISIBLE, '').trim().toLowerCase();
  const at = plain.lastIndexOf('@');
  if (at < 0) return plain;
  // `example.com.` is the same (fully qualified) domain as `example.com`.
  return `${plain.slice(0, at)}@${plain.slice(at + 1).replace(/\.+$/, '')}`;
}

/** Scripts with letters that pass for Latin ones. */
const CONFUSABLE_SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
const LATIN = /\p{Script=Latin}/u;
/** Letters of those scripts that look like Latin ones (lower case, after NFKC). */
const LATIN_LOOK_ALIKES = new Set([...'авекмнорстухіјѕԁһԛԝӏьп', ...'αορνυικτχϲω', ...'ցհոսօզռ']);

/** True when a part of the address mixes Latin with a look-alike script, or is spelled in look-alikes only. */
export function hasLookAlikeLetters(email: string): boolean {
  const at = email.lastIndexOf('@');
  const parts = [email.slice(0, Math.max(0, at)), ...email.slice(at + 1).split('.')];
  return parts.some((part) => {
    const letters = [...part].filter((c) => /\p{L}/u.test(c));
    const foreign = letters.filter((c) => CONFUSABLE_SCRIPT.test(c));
    if (foreign.length === 0) return false;
    if (letters.some((c) => LATIN.test(c))) return true;
    return letters.every((c) => LATIN_LOOK_ALIKES.has(c));
  });
}
