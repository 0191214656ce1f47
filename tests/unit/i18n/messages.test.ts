import { describe, expect, it } from 'vitest';
import { DICTIONARIES } from '../../../src/lib/i18n/languages.ts';
import { MESSAGE_KEYS, type Message } from '../../../src/lib/i18n/dictionary.ts';
import { en } from '../../../src/lib/i18n/messages/en.ts';

const isPlural = (message: Message) => typeof message === 'object';
const placeholders = (message: Message) =>
  [...new Set((isPlural(message) ? Object.values(message) : [message]).join(' ').match(/\{\w+\}/g))]
    .sort()
    .join(' ');

describe.each(Object.entries(DICTIONARIES).filter(([language]) => language !== 'en'))(
  'the %s dictionary',
  (language, messages) => {
    it('has every English key (missing keys are listed)', () => {
      const missing = MESSAGE_KEYS.filter((key) => messages[key] === undefined);
      expect(missing, `${language} lacks: ${missing.join(', ')}`).toEqual([]);
    });

    it('has no key English does not know', () => {
      const unknown = Object.keys(messages).filter((key) => !(key in en));
      expect(unknown).toEqual([]);
    });

    it('keeps the placeholders and plural shape of every English message', () => {
      const wrong = MESSAGE_KEYS.flatMap((key) => {
        const message = messages[key];
        if (message === undefined) return [];
        const english: Message = en[key];
        return isPlural(english) !== isPlural(message) ||
          placeholders(english) !== placeholders(message)
          ? [key]
          : [];
      });
      expect(wrong).toEqual([]);
    });
  },
);
