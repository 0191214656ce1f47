import { isRecord } from '../content/records.ts';
import type { TextValues } from './text-key.ts';
import type { Message } from './dictionary.ts';

/** `message` with `{name}` filled from `values` (numbers in the locale); a plural picks its form by `values.count`. */
export function fill(
  message: Message,
  values: TextValues,
  plurals: Intl.PluralRules,
  numbers: Intl.NumberFormat,
): string {
  const count = values['count'];
  const chosen =
    typeof message === 'string'
      ? message
      : (message[typeof count === 'number' ? plurals.select(count) : 'other'] ?? message.other);
  return chosen.replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = values[name];
    if (value === undefined) return match;
    return typeof value === 'number' ? numbers.format(value) : value;
  });
}

export type Say = (key: string, values?: TextValues) => string;

/** Texts an island says in the browser: messages the page passed as JSON, plurals and numbers by the locale. */
export function sayer(text: Readonly<Record<string, Message>>, locale: string): Say {
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  return (key, values = {}) => fill(text[key] ?? key, values, plurals, numbers);
}

const isMessage = (text: unknown): text is Message =>
  typeof text === 'string' || (isRecord(text) && typeof text['other'] === 'string');

/** An island's `sayer` from its element: messages as JSON in `data-<name>`, the locale in `data-locale`. */
export function sayerOf(element: HTMLElement, name = 'text'): Say {
  let texts: unknown;
  try {
    texts = JSON.parse(element.dataset[name] ?? '{}');
  } catch {
    texts = {};
  }
  const messages = Object.entries(isRecord(texts) ? texts : {}).filter(
    (entry): entry is [string, Message] => isMessage(entry[1]),
  );
  return sayer(Object.fromEntries(messages), element.dataset['locale'] || 'en');
}
