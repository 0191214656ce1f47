import { describe, expect, it } from 'vitest';
import { createI18n, i18nFor } from '../../../src/lib/i18n/index.ts';
import { parseTenantsFile } from '../../../src/lib/tenants/schema.ts';

describe('createI18n', () => {
  it.each([
    ['de-CH', 'nav.search', 'Suche'],
    ['fr-FR', 'nav.search', 'Recherche'],
    ['en-GB', 'nav.search', 'Search'],
    // No Italian dictionary: English, never a bare key.
    ['it-IT', 'nav.search', 'Search'],
  ] as const)('%s says %s as "%s"', (locale, key, text) => {
    expect(createI18n(locale, 'UTC').t(key)).toBe(text);
  });

  it('picks plural forms by the locale’s rules and formats the count', () => {
    const de = createI18n('de-CH', 'Europe/Zurich');
    expect(de.t('epaper.pages', { count: 1 })).toBe('1 Seite');
    expect(de.t('epaper.pages', { count: 1200 })).toBe("1'200 Seiten");
    const fr = createI18n('fr-FR', 'Europe/Paris');
    // French counts 0 and 1 as "one".
    expect(fr.t('widget.nights', { count: 0 })).toBe('0 nuit');
    expect(createI18n('en-US', 'UTC').t('epaper.count', { count: 10 })).toBe(
      '10 editions, newest first',
    );
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    const en = createI18n('en-US', 'UTC');
    expect(en.t('post.by', { name: 'Priya S.' })).toBe('By Priya S.');
    expect(en.t('post.by')).toBe('By {name}');
  });

  it('lets a tenant override single strings', () => {
    const i18n = createI18n('de-CH', 'UTC', { 'nav.stay': 'Hotels' });
    expect(i18n.t('nav.stay')).toBe('Hotels');
    expect(i18n.t('nav.search')).toBe('Suche');
  });
});

describe('tenant message overrides', () => {
  const tenant = (messages: unknown) => ({
    id: 'x',
    name: 'X',
    hosts: ['x.localhost'],
    locale: 'de-CH',
    timeZone: 'Europe/Zurich',
    theme: { colors: { primary: '#000000', accent: '#ffffff' } },
    publishing: { baseUrl: 'http://127.0.0.1:1/api/v1' },
    messages,
  });

  it('are applied through i18nFor', () => {
    const file = parseTenantsFile({ tenants: [tenant({ 'nav.stay': 'Hotels' })] });
    expect(i18nFor(file.tenants[0]!).t('nav.stay')).toBe('Hotels');
  });

  it('refuse an unknown key, naming the tenant and the field', () => {
    expect(() => parseTenantsFile({ tenants: [tenant({ 'nav.nope': 'x' })] })).toThrow(
      /tenant "x".*messages/,
    );
  });
});
