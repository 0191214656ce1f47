import { formatWait } from '../failures/wait.ts';
import type { MessageKey } from './dictionary.ts';

/**
 * Text written before the reader's language is known (validation rules, failures, zod schemas): a
 * message key and its values, encoded as a plain string so it travels wherever a message string
 * goes (zod issues, `FieldErrors`, Action errors, JSON). The page, endpoint or widget that shows it
 * turns it into the reader's language (`localize` in `./text.ts`, `say` in the widget); any other
 * string, such as an upstream API's own message, passes unchanged.
 *
 * The booking widget bundles this file: it imports no server code.
 */

/** Values of a text key; a number named `wait` is a duration in seconds ("30 seconds", "2 Minuten"). */
export type TextValues = Readonly<Record<string, string | number>>;

// U+2063 INVISIBLE SEPARATOR: not typed by people nor sent by APIs, so a real message never matches.
const MARK = '\u2063';

export function textKey(key: MessageKey, values?: TextValues): string {
  return values ? `${MARK}${key}${MARK}${JSON.stringify(values)}` : `${MARK}${key}`;
}

/** The key and values of an encoded text, or null for any other string. */
export function readTextKey(text: string): { key: MessageKey; values: TextValues } | null {
  if (!text.startsWith(MARK)) return null;
  const [, key = '', json] = text.split(MARK);
  let values: TextValues = {};
  if (json) {
    try {
      values = JSON.parse(json) as TextValues;
    } catch {
      return null;
    }
  }
  return { key: key as MessageKey, values };
}

/**
 * `text` written by `write` when it is a text key (its `wait` spelled out in `locale`), else as it is:
 * the one reading of text keys (`localize`).
 */
export function writeText(
  text: string,
  locale: string,
  write: (key: MessageKey, values: TextValues) => string,
): string {
  const parsed = readTextKey(text);
  if (!parsed) return text;
  const { wait, ...values } = parsed.values;
  return write(
    parsed.key,
    typeof wait === 'number' ? { ...values, wait: formatWait(wait, locale) } : values,
  );
}
