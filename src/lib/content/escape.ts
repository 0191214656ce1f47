// Shared by the server and the booking widget's bundle; a few lines each, so no dependency
// (escape-html, escape-string-regexp) for them.

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text safe in HTML or XML content and double-quoted attributes (the only kind written here). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ENTITY[c] ?? c);

/** An attribute value as sanitize-html writes it (these four escaped), read back as text. */
export const unescapeHtml = (html: string): string =>
  html
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` without bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): in a
 * visitor's text (a search, a commenter's name) one override turned the site's own words after it
 * around. Right-to-left letters themselves are kept.
 */
export const withoutBidiControls = (text: string): string =>
  text.replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
