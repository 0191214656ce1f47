import { describe, expect, it } from 'vitest';
import {
  compounds,
  plural,
  resourceSegments,
  segmentsOf,
} from '../../../src/lib/profiles/doctor/spellings.ts';
import { linksIn, pathBelow, linkTemplates } from '../../../src/lib/profiles/doctor/path-search.ts';
import { judgeList } from '../../../src/lib/profiles/doctor/path-search.ts';

describe("paths spelled from the contract's words", () => {
  it.each([
    ['category', 'categories'],
    ['property', 'properties'],
    ['day', 'days'],
    ['availability', 'availabilities'],
    ['post', 'posts'],
    ['address', 'addresses'],
  ])('%s → %s', (word, expected) => {
    expect(plural(word)).toBe(expected);
  });

  it('joins words kebab, snake, camel and joined', () => {
    expect(compounds(['subscription', 'plans'])).toEqual([
      'subscription-plans',
      'subscription_plans',
      'subscriptionPlans',
      'subscriptionplans',
    ]);
  });

  it('a two-word resource: every spelling, singular and plural, the head alone, the qualifier as a group', () => {
    const segments = segmentsOf('Subscription plan');
    expect(segments.slice(0, 5)).toEqual([
      'subscription-plans',
      'subscription_plans',
      'subscriptionPlans',
      'subscriptionplans',
      'plans',
    ]);
    expect(segments).toEqual(
      expect.arrayContaining([
        'subscriptions/plans',
        'subscription/plans',
        'subscriptions',
        'subscription-plan',
        'subscriptionPlan',
        'plan',
      ]),
    );
    // Plural before singular.
    expect(segments.indexOf('plans')).toBeLessThan(segments.indexOf('plan'));
  });

  it("a hyphenated word of the contract (E-paper edition) and a group word (a stream's live)", () => {
    expect(resourceSegments('epaper')).toEqual(
      expect.arrayContaining(['e-paper-editions', 'ePaperEditions', 'epaper', 'e-paper/editions']),
    );
    expect(resourceSegments('streams').slice(0, 2)).toEqual(['streams', 'live/streams']);
  });

  it("other usual nouns come after the contract's, uncountable ones as they are", () => {
    const posts = resourceSegments('posts');
    expect(posts.slice(0, 2)).toEqual(['posts', 'post']);
    expect(posts).toContain('articles');
    expect(posts).toContain('news');
    expect(posts).not.toContain('newses');
  });
});

describe('links the API gives itself', () => {
  const base = 'https://api.example.com/api/v1';

  it('takes links below the base address, absolute or host-relative, and no pictures or other hosts', () => {
    expect(pathBelow('https://api.example.com/api/v1/shop/plans/', base)).toBe('/shop/plans');
    expect(pathBelow('/api/v1/articles', base)).toBe('/articles');
    expect(pathBelow('https://cdn.example.com/api/v1/x', base)).toBeUndefined();
    expect(pathBelow('https://api.example.com/api/v1/cover.jpg', base)).toBeUndefined();
    expect(pathBelow('https://api.example.com/other/x', base)).toBeUndefined();
  });

  it('takes the absolute links of an API at the root of its host', () => {
    const root = 'https://api.example.com';
    expect(pathBelow('https://api.example.com/articles', root)).toBe('/articles');
    expect(
      linksIn({ _links: { articles: { href: `${root}/feed/articles` } } }, `${root}/`),
    ).toEqual(['/feed/articles']);
    expect(pathBelow('https://cdn.example.com/articles', root)).toBeUndefined();
  });

  it('finds the links of an index at any depth (HAL, plain maps, lists)', () => {
    const index = {
      _links: { self: { href: `${base}/` }, plans: { href: `${base}/shop/plans` } },
      resources: ['/api/v1/live/streams', 'not a link'],
    };
    expect(linksIn(index, base)).toEqual(['/shop/plans', '/live/streams']);
  });

  it("makes a detail template of a record's own link that holds its slug", () => {
    const item = { slug: 'harbour-reopens', links: { self: `${base}/read/harbour-reopens` } };
    expect(linkTemplates(item, 'harbour-reopens', 'slug', base).own).toBe('/read/{slug}');
    expect(linkTemplates({ url: `${base}/other` }, 'x', 'slug', base).own).toBeUndefined();
  });

  it("a nested read's template from the item's links; the item's own address ends with its key", () => {
    const item = { l: { a: `${base}/quays/q-7/berths`, b: `${base}/quays/q-7` } };
    expect(linkTemplates(item, 'q-7', 'propertyId', base).nested).toEqual([
      '/quays/{propertyId}/berths',
    ]);
    expect(linkTemplates(item, 'q-7', 'id', base).own).toBe('/quays/{id}');
  });
});

describe('a list in words of its own, judged by its records', () => {
  const declared = { kind: 'list', read: true, path: '/x', needs: ['id', 'name', 'slug'] } as const;
  const answer = (records: unknown[]) => ({ status: 200, rateLimit: {}, body: { zz: records } });
  const tag = { a: 1, b: 'Ferries', c: 'ferries', d: 'https://x.test/t/ferries' };
  const category = { a: 1, b: 'Harbour', c: 'harbour', d: 3 };

  it('a tag has an address, a category none (the contract)', () => {
    const evidence = { ids: {} };
    expect(judgeList('tags.list', declared, evidence)(answer([tag]))).toBe(true);
    expect(judgeList('tags.list', declared, evidence)(answer([category]))).toBe(false);
    expect(judgeList('categories.list', declared, evidence)(answer([category]))).toBe(true);
    expect(judgeList('categories.list', declared, evidence)(answer([tag]))).toBe(false);
  });

  it('refuses records that lack a needed field', () => {
    expect(judgeList('tags.list', declared, { ids: {} })(answer([{ b: 'Only words' }]))).toBe(
      false,
    );
  });
});
