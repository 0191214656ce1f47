import type { Dictionary } from './dictionary.ts';
import { de } from './messages/de.ts';
import { en } from './messages/en.ts';
import { fr } from './messages/fr.ts';

/**
 * The interface languages, by BCP 47 language subtag. To add one: copy `messages/fr.ts` to
 * `messages/<lang>.ts`, translate it, and register it here; `tests/unit/i18n` lists missing keys.
 */
export const DICTIONARIES: Readonly<Record<string, Dictionary>> = { en, de, fr };

/** The dictionary for a locale such as `de-CH` (its language `de`); English when there is none. */
export function dictionaryFor(locale: string): { language: string; messages: Dictionary } {
  const language = new Intl.Locale(locale).language;
  const messages = DICTIONARIES[language];
  return messages ? { language, messages } : { language: 'en', messages: en };
}
