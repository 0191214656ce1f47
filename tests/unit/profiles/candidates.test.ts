import { describe, expect, it } from 'vitest';
import { fieldCandidates } from '../../../src/lib/profiles/doctor/field-finder.ts';
import { nameHint } from '../../../src/lib/profiles/doctor/field-finder.ts';

describe('names as a hint', () => {
  it.each([
    ['title', 'title', 6],
    ['headline', 'title', 4],
    ['section.label', 'category.name', 4],
    ['price.total', 'total_price', 4],
    ['grandTotal', 'total_price', 2],
    ['zz', 'title', 0],
  ])('%s for %s: %i', (path, need, score) => {
    expect(nameHint(path, need)).toBe(score);
  });

  it('only among places whose values fit: a date for a date, a currency code for a currency', () => {
    const article = {
      date: 'yesterday',
      published_on: '2026-11-22',
      currency_code: 'eur',
    };
    // `date` holds no date, so `published_on` wins; `currency_code` is not a code (lower case).
    expect(fieldCandidates([article], 'published_at', { ids: {} }).map((c) => c.path)).toEqual([
      'published_on',
    ]);
    expect(fieldCandidates([article], 'currency', { ids: {} })).toEqual([]);
  });
});
