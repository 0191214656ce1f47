import type { MessageKey } from './dictionary.ts';

/**
 * Text written before the reader's language is known (validation rules, failures, zod schemas): a
 * message key and its values, encoded as a plain string so it travels wherever a message string
 * goes (zod issues, `FieldErrors`, Action errors). The page or endpoint that shows it writes it in
 * the reader's language (`localize` in `./text.ts`); any other string, such as an upstream API's
 * own message, passes unchanged. The booking widget bundles this file: it imports no server code.
 */

/** Values of a text key; a number named `wait` is a duration in seconds ("30 seconds", "2 Minuten"). */
export type TextValues = Readonly<Record<string, string | number>>;

// U+2063 INVISIBLE SEPARATOR: not typed by people nor sent by APIs, so a real message never matches.
const MARK = '\u2063';

export function textKey(key: MessageKey, values?: TextValues): string {
  return values ? `${MARK}${key}${MARK}${JSON.stringify(values)}` : `${MARK}${key}`;
}

/** The key and values of an encoded text, or null for any other string. */
export function readTextKey(text: string): { key: string; values: TextValues } | null {
  if (!text.startsWith(MARK)) return null;
  const [, key = '', json] = text.split(MARK);
  try {
    return { key, values: json ? (JSON.parse(json) as TextValues) : {} };
  } catch {
    return null;
  }
}
