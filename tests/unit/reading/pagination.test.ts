import { describe, expect, it } from 'vitest';
import { pageHref, paginate, parsePage } from '../../../src/lib/reading/pagination.ts';

const href = (page: number) => `/?page=${page}`;

describe('pagination', () => {
  it.each([
    ['', 1],
    ['?page=1', 1],
    ['?page=7', 7],
    ['?page=', 1],
    ['?page=0', null],
    ['?page=-2', null],
    ['?page=2.5', null],
    ['?page=abc', null],
    ['?page=99999999', null],
  ])('reads %s as page %s', (search, expected) => {
    expect(parsePage(new URL(`http://x.test/${search}`).searchParams.get('page'))).toBe(expected);
  });

  it.each([
    [null, 1],
    ['2', 2],
    ['0', null],
    ['-3', null],
    ['x', null],
    ['99999', 99999],
    ['999999', null],
  ])('reads %j with at most five digits as %s', (value, expected) => {
    expect(parsePage(value, 5)).toBe(expected);
  });

  it('shows first, last and a window around the current page, with gaps', () => {
    const model = paginate({ current: 6, last: 12, perPage: 10, total: 120 }, href);
    expect(model.items.map((item) => (item ? item.page : '…'))).toEqual([
      1,
      '…',
      4,
      5,
      6,
      7,
      8,
      '…',
      12,
    ]);
    expect(model.items.find((item) => item?.current)?.page).toBe(6);
    expect(model.prev).toBe('/?page=5');
    expect(model.next).toBe('/?page=7');
  });

  it('has no prev on the first page and no next on the last', () => {
    expect(paginate({ current: 1, last: 3, perPage: 10, total: 30 }, href).prev).toBeNull();
    expect(paginate({ current: 3, last: 3, perPage: 10, total: 30 }, href).next).toBeNull();
  });

  it('renders a single page without gaps', () => {
    const model = paginate({ current: 1, last: 1, perPage: 10, total: 4 }, href);
    expect(model.items).toHaveLength(1);
    expect(model.prev).toBeNull();
    expect(model.next).toBeNull();
  });

  it('builds page links by path that keep other parameters and drop page 1', () => {
    const params = new URLSearchParams({ q: 'harbour ferry', page: '2' });
    expect(pageHref('/search', params, 1)).toBe('/search?q=harbour+ferry');
    expect(pageHref('/search', params, 3)).toBe('/search/page/3?q=harbour+ferry');
    expect(pageHref('/', new URLSearchParams(), 1)).toBe('/');
    expect(pageHref('/', new URLSearchParams(), 2)).toBe('/page/2');
    expect(pageHref('/categories/sport', new URLSearchParams(), 4)).toBe(
      '/categories/sport/page/4',
    );
  });
});
