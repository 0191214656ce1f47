import { describe, expect, it } from 'vitest';
import { currentMark, mainNavigation } from '../../src/lib/reading/navigation.ts';
import { createI18n } from '../../src/lib/i18n/index.ts';
import { buildTenant } from '../fixtures/tenant.ts';

const tenant = buildTenant({
  locale: 'de-CH',
  timeZone: 'Europe/Zurich',
  features: { epaper: true, streams: false, comments: true, booking: false },
});

describe('mainNavigation', () => {
  const categories = Array.from({ length: 8 }, (_, i) => ({ name: `C${i}`, slug: `c${i}` }));

  it('lists six categories, then "all sections", then the sections switched on, in German', () => {
    const items = mainNavigation(tenant, createI18n('de-CH', 'Europe/Zurich').t, categories);
    expect(items.map((item) => item.label)).toEqual([
      'C0',
      'C1',
      'C2',
      'C3',
      'C4',
      'C5',
      'Alle Ressorts',
      'E-Paper',
      'Suche',
    ]);
    expect(items.find((item) => item.label === 'Alle Ressorts')?.path).toBe('/categories');
  });
});

describe('currentMark', () => {
  it.each([
    ['/search', '/search', undefined, 'page'],
    ['/epaper', '/epaper/2026-11-20', undefined, 'true'],
    ['/categories/news', '/posts/a', '/categories/news', 'true'],
    ['/categories/news', '/categories/newsroom', undefined, undefined],
    ['/', '/search', undefined, undefined],
  ] as const)('%s on %s (section %s) → %s', (item, page, section, mark) => {
    expect(currentMark(item, page, section)).toBe(mark);
  });
});
