import { describe, expect, it } from 'vitest';
import {
  currentMark,
  currentMarks,
  headerNavigation,
  mainNavigation,
  navKey,
} from '../../src/lib/reading/navigation.ts';
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

  it("the header's entries: the same as mainNavigation, made again only for another categories list", () => {
    const t = createI18n('de-CH', 'Europe/Zurich').t;
    const header = headerNavigation(tenant, t)(categories);
    expect(header.items).toEqual(mainNavigation(tenant, t, categories));
    expect(header.key).toBe(navKey(header.items));
    expect(headerNavigation(tenant, t)(categories)).toBe(header);
    const renamed = categories.map((category) => ({ ...category, name: `${category.name}!` }));
    expect(headerNavigation(tenant, t)(renamed).items[0]?.label).toBe('C0!');
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

describe('currentMarks', () => {
  const menu = ['/categories/news', '/categories/sport', '/categories', '/epaper', '/search'];
  it.each([
    ['/categories/news', undefined, ['page', undefined, undefined, undefined, undefined]],
    ['/categories/news/page/2', undefined, ['true', undefined, undefined, undefined, undefined]],
    ['/posts/a', '/categories/sport', [undefined, 'true', undefined, undefined, undefined]],
    // A category the header does not list belongs under "All sections".
    ['/categories/weather', undefined, [undefined, undefined, 'true', undefined, undefined]],
    ['/categories', undefined, [undefined, undefined, 'page', undefined, undefined]],
    ['/', undefined, [undefined, undefined, undefined, undefined, undefined]],
  ] as const)('on %s (section %s) only one entry is current', (page, section, marks) => {
    expect(currentMarks(menu, page, section)).toEqual(marks);
  });
});
