// Deliberately loose: one @, a dot in the domain, no spaces (the upstream checks again); and none of
// the characters that make a mail library read a display name, a comment or a list out of it
// (`"1"<victim@example.com>` is mailed to victim@example.com, and counted as another recipient).
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/**
 * The one check of an e-mail address a visitor types (account, comment, booking forms): letters of
 * any script pass (`josé@example.com`, `user@bücher.de`), as Laravel's `email` rule (RFC
 * validation) accepts them (docs/api-assumptions.md).
 */
export const isEmailAddress = (value: string): boolean => EMAIL.test(value);

/** What a phone's smart punctuation types for ' " and -: no mailbox means the curly or dashed one. */
export const straightenPunctuation = (value: string): string =>
  value
    .replace(/[‘’ʼ′]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐‑‒–−]/g, '-');
