import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listOf, paged } from '../../../src/lib/upstream/parse.ts';
import {
  fillPath,
  mapFields,
  missingNeeds,
  profiledRequest,
  reshapeBody,
} from '../../../src/lib/upstream/profile.ts';

describe('reshapeBody', () => {
  it('finds a list at the envelope, maps item and page fields', () => {
    const body = {
      results: [{ headline: 'A', key: 'a', byline: { display: 'Ann' } }],
      paging: { count: 31, page: 2, pages: 4 },
    };
    const shaped = reshapeBody(
      body,
      {
        envelope: ['results'],
        fields: {
          title: ['headline'],
          slug: ['key'],
          'author.name': ['byline.display'],
          'meta.total': ['paging.count'],
          'meta.current_page': ['paging.page'],
          'meta.last_page': ['paging.pages'],
        },
      },
      'list',
    );
    expect(shaped).toEqual({
      data: [
        {
          headline: 'A',
          key: 'a',
          byline: { display: 'Ann' },
          title: 'A',
          slug: 'a',
          author: { name: 'Ann' },
        },
      ],
      meta: { total: 31, current_page: 2, last_page: 4 },
    });
  });

  it('maps inside lists of an item, alternatives in order', () => {
    const body = { result: { offers: [{ unit: 'r1', left: 2, cost: { gross: 300 } }] } };
    expect(
      reshapeBody(
        body,
        {
          envelope: ['result'],
          fields: {
            room_types: ['rooms', 'offers'],
            'room_types[].room_type_id': ['unit'],
            'room_types[].total_price': ['cost.total', 'cost.gross'],
          },
        },
        'item',
      ),
    ).toMatchObject({
      data: { room_types: [{ room_type_id: 'r1', total_price: 300, left: 2 }] },
    });
  });

  it('is the body itself without a profile', () => {
    const body = { data: [1] };
    expect(reshapeBody(body, undefined, 'list')).toBe(body);
  });

  it("keeps a raw paginator's page fields", () => {
    expect(
      reshapeBody(
        { data: [{ t: 1 }], current_page: 3, last_page: 9 },
        { fields: { title: ['t'] } },
        'list',
      ),
    ).toEqual({ data: [{ t: 1, title: 1 }], meta: { current_page: 3, last_page: 9 } });
  });

  it.each([
    ['a raw paginator', { data: { data: [{ t: 1 }], current_page: 3, last_page: 9 } }],
    [
      'a resource paginator',
      { data: { data: [{ t: 1 }], meta: { current_page: 3, last_page: 9 } } },
    ],
  ])('keeps the page fields of %s inside a data envelope', (_name, body) => {
    // The list sits at `data.data`: its page fields are beside it, not at the body's root.
    expect(reshapeBody(body, { fields: { title: ['t'] } }, 'list')).toEqual({
      data: [{ t: 1, title: 1 }],
      meta: { current_page: 3, last_page: 9 },
    });
  });

  it('keeps the next page of a list that does not count (links.next), as without a profile', () => {
    const body = {
      data: [{ t: 'A' }, { t: 'B' }],
      meta: { current_page: 1, per_page: 2 },
      links: { next: 'https://api.example/posts?page=2' },
    };
    const list = listOf(z.looseObject({ title: z.string() }));
    const profiled = list.parse(reshapeBody(body, { fields: { title: ['t'] } }, 'list'));
    // Page 2 exists: the list links to it rather than ending at page 1.
    expect(paged({}).map(profiled).page).toMatchObject({ current: 1, last: 2 });
    expect(profiled.items.map((item) => item.title)).toEqual(['A', 'B']);
  });
});

describe('requests as the profile spells them', () => {
  it('method, path with parameters, renamed query and body fields', () => {
    expect(
      profiledRequest(
        {
          method: 'GET',
          path: '/posts/a%20b',
          params: { slug: 'a b' },
          query: { per_page: 10, page: 2 },
        },
        { path: '/articles/{slug}', rename: { per_page: 'limit' } },
      ),
    ).toEqual({
      method: 'GET',
      path: '/articles/a%20b',
      query: { limit: 10, page: 2 },
      body: undefined,
    });
    expect(fillPath('/x/{id}/{other}', { id: 7 })).toBe('/x/7/{other}');
  });
});

describe('missingNeeds', () => {
  it('names each field the site needs and the answer lacks', () => {
    expect(
      missingNeeds({ id: 1, title: '', room_types: [{ id: 'x' }] }, [
        'id',
        'title',
        'slug',
        'room_types[].id',
        'room_types[].total_price',
      ]),
    ).toEqual(['title', 'slug', 'room_types[].total_price']);
    expect(mapFields('text', { a: ['b'] })).toBe('text');
  });
});
