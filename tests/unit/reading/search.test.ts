import { describe, expect, it } from 'vitest';
import {
  excerptAround,
  highlight,
  orderResults,
  queryTerms,
  searchCount,
  searchPageMissing,
  searchQuery,
  searchSort,
  searchTitle,
  shownSearchQuery,
} from '../../../src/lib/reading/search.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';

describe('searchSort', () => {
  it.each([
    ['relevance', 'relevance'],
    ['newest', 'newest'],
    [null, 'newest'],
    ['oldest', 'newest'],
  ] as const)('%s → %s', (value, sort) => {
    expect(searchSort(value)).toBe(sort);
  });
});

describe('queryTerms', () => {
  it('keeps words of two or more letters or digits, once, lower-cased, any script', () => {
    expect(queryTerms('Ferry, ferry & the "Zürich" 5 G20 a')).toEqual([
      'ferry',
      'the',
      'zürich',
      'g20',
    ]);
  });
});

describe('highlight', () => {
  it('marks every occurrence of the words, whatever their case, and nothing else', () => {
    expect(
      highlight('Ferries and the ferry: Harbourside', ['ferr', 'harbour', 'harbourside']),
    ).toEqual([
      { text: 'Ferr', mark: true },
      { text: 'ies and the ', mark: false },
      { text: 'ferr', mark: true },
      { text: 'y: ', mark: false },
      { text: 'Harbourside', mark: true },
    ]);
  });

  it('marks words where they start, never inside another word', () => {
    expect(highlight('Another side of the Bergbahn', ['the', 'berg'])).toEqual([
      { text: 'Another side of ', mark: false },
      { text: 'the', mark: true },
      { text: ' ', mark: false },
      { text: 'Berg', mark: true },
      { text: 'bahn', mark: false },
    ]);
  });

  it('treats the query as text, never as a pattern or markup', () => {
    expect(highlight('a <b> (x) b', queryTerms('(x'))).toEqual([
      { text: 'a <b> (x) b', mark: false },
    ]);
    expect(highlight('1+1=2', ['1+1'])).toEqual([
      { text: '1+1', mark: true },
      { text: '=2', mark: false },
    ]);
  });

  it('without words, the text stays whole', () => {
    expect(highlight('Plain text', [])).toEqual([{ text: 'Plain text', mark: false }]);
  });
});

describe('orderResults', () => {
  const posts = [
    { title: 'Budget vote', excerpt: 'The ferry budget', published_at: '2026-11-20T08:00:00Z' },
    {
      title: 'Ferry strike',
      excerpt: 'Ferry crews walk out',
      published_at: '2026-11-01T08:00:00Z',
    },
    { title: 'Ferry fares', excerpt: 'Prices rise', published_at: '2026-11-22T08:00:00Z' },
  ];

  it('newest first by publication date', () => {
    expect(orderResults(posts, 'newest', ['ferry']).map((p) => p.title)).toEqual([
      'Ferry fares',
      'Budget vote',
      'Ferry strike',
    ]);
  });

  it('best match: headline hits weigh most, ties newest first', () => {
    expect(orderResults(posts, 'relevance', ['ferry']).map((p) => p.title)).toEqual([
      'Ferry strike',
      'Ferry fares',
      'Budget vote',
    ]);
  });
});

describe('excerptAround', () => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(12)}The ferry leaves at noon. ${'Sed do eiusmod. '.repeat(8)}`;

  it('keeps a short excerpt whole', () => {
    expect(excerptAround('Short one.', ['ferry'])).toBe('Short one.');
  });

  it('cuts a long one near the first hit, on word boundaries, with ellipses', () => {
    const cut = excerptAround(long, ['ferry'], 120);
    expect(cut).toContain('The ferry leaves at noon.');
    expect(cut.startsWith('… ')).toBe(true);
    expect(cut.endsWith(' …')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(124);
  });
});

describe('searchTitle', () => {
  // Like every other paginated list: a later page names its number (titles, tabs, history).
  it.each([
    ['en-GB', 'ferry', 1, 'Search: ferry'],
    ['en-GB', ' ferry ', 2, 'Search: ferry, page 2'],
    ['de-CH', 'Fähre', 3, 'Suche: Fähre, Seite 3'],
    ['fr-CH', 'bac', 2, 'Recherche\u202f: bac, page 2'],
    ['en-GB', '', 1, 'Search'],
    ['de-CH', '  ', 2, 'Suche, Seite 2'],
  ] as const)('%s %j page %i → %s', (locale, query, page, title) => {
    expect(searchTitle(createI18n(locale, 'Europe/Zurich').t, query, page)).toBe(title);
  });
});

describe('searchPageMissing', () => {
  const results = (last: number) => ({ page: { last } });
  it.each([
    // No query, no pages: only the search form's own page (a stale or made-up /search/page/5).
    [1, null, false],
    [2, null, true],
    [3, results(3), false],
    [4, results(3), true],
    // A query without results still has its first page (which says so).
    [1, results(0), false],
    [2, results(0), true],
  ] as const)('page %i of %j: missing %s', (page, found, missing) => {
    expect(searchPageMissing(page, found)).toBe(missing);
  });
});

describe('searchCount', () => {
  const results = (count: number, page: { current: number; last: number; total?: number }) => ({
    items: Array.from({ length: count }),
    page: { perPage: 10, ...page },
  });
  it.each([
    // A counting API: its total, on every page.
    ['en-GB', '23 results for “ferry”', results(10, { current: 2, last: 3, total: 23 })],
    // An API that does not count (`simplePaginate`): which results, while more follow …
    [
      'en-GB',
      'Results 1–10 for “ferry”, more on the next page',
      results(10, { current: 1, last: 2 }),
    ],
    [
      'de-CH',
      'Treffer 11–20 für «ferry», weitere auf der nächsten Seite',
      results(10, { current: 2, last: 3 }),
    ],
    [
      'fr-CH',
      'Résultats 1 à 10 pour « ferry », d’autres à la page suivante',
      results(10, { current: 1, last: 2 }),
    ],
    // … and on the last page, after full ones, the count.
    ['en-GB', '1 result for “ferry”', results(1, { current: 1, last: 1 })],
    ['en-GB', '24 results for “ferry”', results(4, { current: 3, last: 3 })],
    ['de-CH', '24 Treffer für «ferry»', results(4, { current: 3, last: 3 })],
  ] as const)('%s: %s', (locale, line, found) => {
    expect(searchCount(createI18n(locale, 'Europe/Zurich').t, 'ferry', found)).toBe(line);
  });
});

describe('searchQuery', () => {
  it('keeps at most 200 characters, as the form allows', () => {
    expect(searchQuery('x'.repeat(300))).toBe('x'.repeat(200));
    expect(searchQuery(null)).toBe('');
  });

  it('never cuts an emoji in half (the API’s address cannot carry half of one)', () => {
    const query = searchQuery(`a${'😀'.repeat(150)}`);
    expect(query.isWellFormed()).toBe(true);
    expect(query).toBe(`a${'😀'.repeat(99)}`);
  });

  it('drops bidi controls, so a link’s query cannot turn the page’s words around', () => {
    // U+202E (right-to-left override) reversed "Try fewer or different words." after the query.
    expect(searchQuery('\u202eferry')).toBe('ferry');
    expect(searchQuery('\u2067fer\u202ary\u2069\u202c')).toBe('ferry');
    // Right-to-left words themselves stay as typed.
    expect(searchQuery('שלום 2026')).toBe('שלום 2026');
  });

  it('reads control characters (a NUL, a pasted tab or line break) as spaces', () => {
    expect(searchQuery('ferry\u0000times\ttides\r\n')).toBe('ferry times tides  ');
  });
});

describe('shownSearchQuery', () => {
  const shown = (query: string) => shownSearchQuery(new URLSearchParams(query))?.toString() ?? null;

  it('leaves the addresses the page’s own form and links make alone', () => {
    expect(shown('q=ferry')).toBeNull();
    expect(shown('q=ferry+times&sort=relevance')).toBeNull();
    expect(shown('')).toBeNull();
  });

  it('answers any other spelling of the same search with the page’s own (one cached copy)', () => {
    // The default order, or one the page does not know, is the page without `sort`.
    expect(shown('q=ferry&sort=newest')).toBe('q=ferry');
    expect(shown('q=ferry&sort=xyz')).toBe('q=ferry');
    // The query as searched: at most 200 characters, without the spaces around it.
    expect(shown(`q=${'a'.repeat(250)}`)).toBe(`q=${'a'.repeat(200)}`);
    expect(shown('q=+ferry+')).toBe('q=ferry');
    // Without a query there is nothing to order: the search prompt.
    expect(shown('q=')).toBe('');
    expect(shown('sort=relevance')).toBe('');
    expect(shown('q=+&sort=relevance')).toBe('');
  });
});
