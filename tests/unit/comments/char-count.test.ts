import { describe, expect, it } from 'vitest';
import { countText } from '../../../src/lib/comments/char-count.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { sayer } from '../../../src/lib/i18n/say.ts';

function sayFor(locale: string) {
  const i18n = createI18n(locale, 'UTC');
  return sayer(
    { count: i18n.message('comments.count'), over: i18n.message('comments.over') },
    locale,
  );
}

describe('the live character count', () => {
  it('counts as a person does and names the excess past the limit', () => {
    const say = sayFor('en-GB');
    expect(countText(say, 'Hi 😀\r\nthere')).toBe('10 of 2,000 characters.');
    expect(countText(say, 'x'.repeat(2001))).toBe(
      '2,001 of 2,000 characters. 1 character too many.',
    );
  });

  it('speaks the tenant’s language, the same words the server uses after a submit', () => {
    const i18n = createI18n('de-CH', 'UTC');
    const text = 'x'.repeat(2005);
    expect(countText(sayFor('de-CH'), text)).toBe(
      `${i18n.t('comments.count', { count: 2005, max: 2000 })} ${i18n.t('comments.over', { count: 5 })}`,
    );
    expect(countText(sayFor('de-CH'), text)).toMatch(
      /^2.005 von 2.000 Zeichen\. 5 Zeichen zu viel\.$/,
    );
  });
});
