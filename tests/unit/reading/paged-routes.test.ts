import { describe, expect, it } from 'vitest';
import { askedAddress, pagedRoute } from '../../../src/lib/reading/paged-routes.ts';

const route = (url: string) => {
  const parsed = new URL(url, 'http://x.test');
  return pagedRoute(parsed.pathname, parsed.searchParams);
};

describe('pagination by path', () => {
  it.each([
    ['/page/2', '/?page=2'],
    ['/page/2/', '/?page=2'],
    ['/categories/sport/page/3', '/categories/sport?page=3'],
    ['/tags/harbour/page/2/', '/tags/harbour?page=2'],
    ['/epaper/page/2', '/epaper?page=2'],
    ['/streams/page/2', '/streams?page=2'],
    ['/search/page/2?q=ferry', '/search?q=ferry&page=2'],
    ['/page/2?tenant=daily-planet', '/?tenant=daily-planet&page=2'],
    // Invalid numbers reach the list, whose own check answers 404.
    ['/page/0', '/?page=0'],
    ['/page/abc', '/?page=abc'],
    ['/page/000', '/?page=000'],
    ['/page/0001234567', '/?page=0001234567'],
  ])('%s renders the list at %s', (url, rewrite) => {
    expect(route(url)).toEqual({ rewrite });
  });

  it.each([
    ['/?page=2', '/page/2'],
    ['/?page=1', '/'],
    ['/categories/sport?page=3', '/categories/sport/page/3'],
    ['/categories/sport/?page=3', '/categories/sport/page/3'],
    ['/tags/harbour?page=2&tenant=x', '/tags/harbour/page/2?tenant=x'],
    ['/search?q=ferry&page=4', '/search/page/4?q=ferry'],
    ['/page/1', '/'],
    ['/categories/sport/page/1', '/categories/sport'],
    // One address per page: else `/page/02`, `/page/002` … are more cached copies of `/page/2`.
    ['/page/02', '/page/2'],
    ['/page/01', '/'],
    ['/streams/page/007', '/streams/page/7'],
    ['/categories/sport/page/03/', '/categories/sport/page/3'],
    ['/tags/harbour/page/003/?tenant=x', '/tags/harbour/page/3?tenant=x'],
    ['/search/page/010?q=ferry', '/search/page/10?q=ferry'],
  ])('the old %s answers with a redirect to %s', (url, redirect) => {
    expect(route(url)).toEqual({ redirect });
  });

  it.each([
    '/posts/a-post',
    '/posts/a-post?page=2',
    '/posts/page/2',
    '/categories/page/2',
    '/?page=abc',
    '/?page=0',
    '/categories/sport',
    '/plans?page=2',
  ])('leaves %s alone', (url) => {
    expect(route(url)).toBeNull();
  });
});

describe('the e-paper reader by path', () => {
  it.each([
    ['/epaper/weekly-1/page/3', '/epaper/weekly-1?page=3'],
    ['/epaper/weekly-1/page/3/zoom/1.5', '/epaper/weekly-1?page=3&zoom=1.5'],
    ['/epaper/weekly-1/zoom/2/', '/epaper/weekly-1?zoom=2'],
    ['/epaper/weekly-1/page/2?page=9&tenant=x', '/epaper/weekly-1?tenant=x&page=2'],
  ])('%s renders the reader at %s', (url, rewrite) => {
    expect(route(url)).toEqual({ rewrite });
  });

  it.each([
    ['/epaper/weekly-1?page=3', '/epaper/weekly-1/page/3'],
    ['/epaper/weekly-1?page=3&zoom=1.5', '/epaper/weekly-1/page/3/zoom/1.5'],
    ['/epaper/weekly-1?zoom=2&tenant=x', '/epaper/weekly-1/zoom/2?tenant=x'],
    ['/epaper/weekly-1?page=1&zoom=1', '/epaper/weekly-1'],
    ['/epaper/weekly-1?page=abc&zoom=9', '/epaper/weekly-1'],
    // One address per page and zoom: else each spelling is one more cached copy of a free edition.
    ['/epaper/weekly-1/page/03', '/epaper/weekly-1/page/3'],
    ['/epaper/weekly-1/page/1/zoom/1.50', '/epaper/weekly-1/zoom/1.5'],
    ['/epaper/weekly-1/page/2/zoom/1?tenant=x', '/epaper/weekly-1/page/2?tenant=x'],
    ['/epaper/weekly-1/page/abc/zoom/7?page=4', '/epaper/weekly-1'],
  ])('the go-to form and old links (%s) answer with a redirect to %s', (url, redirect) => {
    expect(route(url)).toEqual({ redirect });
  });

  it('leaves the plain edition and the list pages to the list rules', () => {
    expect(route('/epaper/weekly-1')).toBeNull();
    expect(route('/epaper/page/2')).toEqual({ rewrite: '/epaper?page=2' });
  });
});

// Slugs are lower case (Laravel's Str::slug; the contract mock's posts, categories and tags): a
// link typed or mangled to upper case is answered with the lower-case address, before any API call.
describe('slugs in upper case', () => {
  it.each([
    ['/posts/Ferry-Timetable', '/posts/ferry-timetable'],
    ['/posts/FERRY?reply=4', '/posts/ferry?reply=4'],
    ['/categories/Sport', '/categories/sport'],
    ['/categories/Sport/', '/categories/sport/'],
    ['/tags/Harbour?tenant=x', '/tags/harbour?tenant=x'],
    ['/categories/Sport/page/3', '/categories/sport/page/3'],
    ['/tags/Harbour/page/2?tenant=x', '/tags/harbour/page/2?tenant=x'],
    // One hop, not two: the first page's own address at once.
    ['/tags/Harbour/page/1', '/tags/harbour'],
    ['/categories/Sport?page=2', '/categories/sport/page/2'],
    // An escape's hex digits are not the slug's letters.
    ['/posts/Caf%C3%A9', '/posts/caf%C3%A9'],
  ])('%s answers with a redirect to %s', (url, redirect) => {
    expect(route(url)).toEqual({ redirect });
  });

  it.each([
    '/posts/ferry-timetable',
    '/posts/caf%C3%A9',
    '/categories/sport',
    '/tags/harbour?tenant=Daily',
    '/Posts/Ferry',
    '/epaper/Weekly-1',
  ])('leaves %s alone (no loop, no other route)', (url) => {
    expect(route(url)).toBeNull();
  });
});

describe('the address the visitor asked for, on a page rendered from a rewrite', () => {
  it.each([
    ['/page/2', '/?page=2', '/page/2'],
    ['/categories/sport/page/3', '/categories/sport?page=3', '/categories/sport/page/3'],
    [
      '/search/page/2',
      '/search?q=ferry&sort=relevance&page=2',
      '/search/page/2?q=ferry&sort=relevance',
    ],
    [
      '/epaper/weekly-1/page/3/zoom/2',
      '/epaper/weekly-1?page=3&zoom=2',
      '/epaper/weekly-1/page/3/zoom/2',
    ],
    // Not rewritten: the address as rendered, query and all.
    ['/search', '/search?q=ferry', '/search?q=ferry'],
    ['/posts/a-post', '/posts/a-post?reply=4', '/posts/a-post?reply=4'],
    ['/categories/sport', '/categories/sport', '/categories/sport'],
  ])('%s (rendered at %s) is %s', (asked, rendered, address) => {
    expect(askedAddress(asked, new URL(rendered, 'http://x.test'))).toBe(address);
  });
});
