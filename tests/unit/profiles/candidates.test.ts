import { describe, expect, it } from 'vitest';
import { candidatePaths } from '../../../src/lib/profiles/candidates.ts';

describe('where else an answer may keep a field', () => {
  const article = {
    uid: 7,
    headline: 'Harbour reopens',
    handle: 'harbour-reopens',
    date: 'yesterday',
    published_on: '2026-11-22',
    section: { label: 'Harbour', handle: 'harbour' },
    price: { total: '240.00', currency_code: 'EUR' },
    currency_code: 'eur',
  };

  it.each([
    ['title', 'headline'],
    ['slug', 'handle'],
    ['category.name', 'section.label'],
    ['total_price', 'price.total'],
  ])('%s → %s', (need, path) => {
    expect(candidatePaths(article, need)[0]?.path).toBe(path);
  });

  it('takes only a value of the right kind: a date for a date, a currency code for a currency', () => {
    // `date` holds no date, so `published_on` wins; `currency_code` is not a code (lower case).
    expect(candidatePaths(article, 'published_at').map((c) => c.path)).toEqual(['published_on']);
    expect(candidatePaths(article, 'currency')).toEqual([]);
  });
});
