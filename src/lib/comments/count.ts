/** The comment length rules, apart from the form's zod rules: the live count island bundles this file. */

/** The contract's limit on `content`, counted in characters (code points, as Laravel's `max` does). */
export const COMMENT_MAX = 2000;

/**
 * Characters as a person counts them (an emoji is one), with the browser's CRLF line breaks as one,
 * of what is stored: without the spaces and line breaks around the text, which are trimmed off.
 */
export function characterCount(text: string): number {
  return [...normaliseText(text).trim()].length;
}

/** Browsers submit textarea line breaks as CRLF; the API and the count see one `\n`. */
export function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
