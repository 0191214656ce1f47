import { describe, expect, it } from 'vitest';
import { sayer } from '../../../src/lib/i18n/say.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { localize, localizeFields } from '../../../src/lib/i18n/text.ts';
import { textKey } from '../../../src/lib/i18n/text-key.ts';
import { readTextKey } from '../../../src/lib/i18n/text-key.ts';

const de = createI18n('de-CH', 'Europe/Zurich');
const fr = createI18n('fr-CH', 'Europe/Zurich');

describe('text keys', () => {
  it('carry a key and its values through a plain string', () => {
    const text = textKey('booking.error.minStay', { count: 2 });
    expect(typeof text).toBe('string');
    expect(readTextKey(text)).toEqual({ key: 'booking.error.minStay', values: { count: 2 } });
    expect(readTextKey('The email has already been taken.')).toBeNull();
  });

  it('are written in the reader’s language, plurals and numbers included', () => {
    expect(localize(de, textKey('booking.error.minStay', { count: 1 }))).toBe(
      'Der Mindestaufenthalt beträgt 1 Nacht.',
    );
    expect(localize(de, textKey('booking.error.minStay', { count: 3 }))).toBe(
      'Der Mindestaufenthalt beträgt 3 Nächte.',
    );
    expect(localize(de, textKey('comments.error.tooLong', { length: 2005, max: 2000 }))).toBe(
      "Ihr Kommentar ist 2'005 Zeichen lang. Kürzen Sie ihn auf höchstens 2'000 Zeichen.",
    );
  });

  it('write a wait out in words: seconds, then whole minutes', () => {
    expect(localize(de, textKey('booking.error.busy', { wait: 5 }))).toBe(
      'Bei den Buchungen ist gerade viel los. Bitte versuchen Sie es in 5 Sekunden erneut.',
    );
    expect(localize(fr, textKey('auth.tooManyAttempts', { wait: 840 }))).toMatch(
      /^Trop de tentatives\. Veuillez patienter 14\sminutes et réessayer\.$/,
    );
  });

  it('leave an upstream’s own message and unknown keys alone', () => {
    expect(localize(de, 'The email has already been taken.')).toBe(
      'The email has already been taken.',
    );
    const unknown = '\u2063no.such.key';
    expect(localize(de, unknown)).toBe(unknown);
    expect(localizeFields(de, { email: ['Taken.', textKey('auth.emailRequired')] })).toEqual({
      email: ['Taken.', 'Geben Sie Ihre E-Mail-Adresse ein.'],
    });
  });

  it('plural texts the booking element says are chosen by its locale', () => {
    const say = sayer({ nights: fr.message('widget.nights') }, 'fr-CH');
    expect(say('nights', { count: 1 })).toBe('1 nuit');
    expect(say('nights', { count: 2 })).toBe('2 nuits');
    expect(say('no.such.key')).toBe('no.such.key');
  });
});
