import { describe, expect, it } from 'vitest';
import {
  cleanQuery,
  cleanRedirect,
  isUnreadablePath,
  shareableParams,
  shareableParamsOfRequestPath,
} from '../../../src/lib/request/clean-url.ts';

const names = (set: ReadonlySet<string> | null) => (set ? [...set].sort() : null);

describe('shareable pages and the query parameters that change them', () => {
  it.each([
    ['/', ['page', 'tenant']],
    ['/page/2', ['page', 'tenant']],
    ['/search', ['page', 'q', 'sort', 'tenant']],
    ['/search/page/3/', ['page', 'q', 'sort', 'tenant']],
    ['/posts/ferry-news', ['comments-page', 'reply', 'tenant']],
    ['/epaper/monday/page/3/zoom/2', ['page', 'tenant', 'zoom']],
    ['/tags/harbour', ['page', 'tenant']],
    // The indexes are one page: `?page=2` there is one more stored copy of the same list.
    ['/tags', ['tenant']],
    ['/categories/', ['tenant']],
    ['/categories/sport/page/2', ['page', 'tenant']],
    ['/plans/digital', ['tenant']],
    ['/rss.xml', ['tenant']],
    ['/sitemap-posts-1.xml', ['tenant']],
  ])('%s reads %j', (path, expected) => {
    expect(names(shareableParams(path))).toEqual(expected);
  });

  it.each(['/login', '/account', '/stay', '/stay/manage/abc.def', '/api/booking/availability'])(
    '%s is not a shareable page',
    (path) => {
      expect(shareableParams(path)).toBeNull();
    },
  );

  it('takes ?tenant= only on a preview: a tenant found by host or /<id>/ prefix redirects it away', () => {
    // Else every made-up `?tenant=` value on a tenant's own host is one more stored copy of the page.
    expect(names(shareableParams('/streams', false))).toEqual(['page']);
    expect(names(shareableParams('/streams/opening-night', false))).toEqual([]);
    const url = new URL('http://harbour-times.localhost/streams?tenant=zzz1');
    expect(cleanRedirect(url, shareableParams('/streams', false) ?? new Set())).toBe('/streams');
    expect(cleanRedirect(url, shareableParams('/streams', true) ?? new Set())).toBeNull();
  });

  it('sees through a /<tenant>/ prefix for the route cache, which runs before tenant resolution', () => {
    expect(names(shareableParamsOfRequestPath('/daily-planet/search'))).toEqual([
      'page',
      'q',
      'sort',
      'tenant',
    ]);
    expect(names(shareableParamsOfRequestPath('/daily-planet'))).toEqual(['page', 'tenant']);
    expect(shareableParamsOfRequestPath('/daily-planet/login')).toBeNull();
  });
});

describe('clean URLs', () => {
  const allowed = new Set(['q', 'tenant']);

  it('keys a page by its own parameters only, in a stable order', () => {
    const a = new URLSearchParams('utm_source=x&q=ferry&tenant=daily-planet&v=1');
    const b = new URLSearchParams('tenant=daily-planet&q=ferry&pad=zzzz');
    expect(cleanQuery(a, allowed)).toBe('?q=ferry&tenant=daily-planet');
    expect(cleanQuery(b, allowed)).toBe(cleanQuery(a, allowed));
    expect(cleanQuery(new URLSearchParams('v=1'), allowed)).toBe('');
  });

  it('redirects only an address with parameters the page does not read', () => {
    const url = (s: string) => new URL(`http://x.test${s}`);
    expect(cleanRedirect(url('/search?v=1&q=ferry&pad=x'), allowed)).toBe('/search?q=ferry');
    expect(cleanRedirect(url('/?v=1'), allowed)).toBe('/');
    expect(cleanRedirect(url('/caf%C3%A9?v=1'), allowed)).toBe('/caf%C3%A9');
    // Clean addresses never redirect, whatever the order of their parameters.
    expect(cleanRedirect(url('/search?tenant=a&q=b'), allowed)).toBeNull();
    expect(cleanRedirect(url('/search'), allowed)).toBeNull();
  });

  it('redirects a page asked with a trailing slash to its address without, keeping its query', () => {
    // Else `/posts/x/` is a second rendered and cached copy of the post.
    const url = (s: string) => new URL(`http://x.test${s}`);
    expect(cleanRedirect(url('/posts/ferry/'), allowed, true)).toBe('/posts/ferry');
    expect(cleanRedirect(url('/daily-planet/posts/ferry//'), allowed, true)).toBe(
      '/daily-planet/posts/ferry',
    );
    expect(cleanRedirect(url('/search/?q=ferry&tenant=a&v=1'), allowed, true)).toBe(
      '/search?q=ferry&tenant=a',
    );
    expect(cleanRedirect(url('/'), allowed)).toBeNull();
    // A `/<id>/` prefix's home (its page path `/`): `?page=2` is left to the paged redirect.
    expect(cleanRedirect(url('/daily-planet/?page=2'), new Set(['page']))).toBeNull();
    // Never to another site: `//evil.test/` is not sent on as `//evil.test`.
    expect(cleanRedirect(url('//evil.test/'), allowed, true)).toBe('/evil.test');
    expect(cleanRedirect(url('//evil.test?v=1'), allowed)).toBe('/evil.test');
  });

  it('redirects a path escaped otherwise than the site writes it to its one spelling', () => {
    // Else `/posts/%74all` (or `%74%61ll`, …) is one more rendered and cached copy of `/posts/tall`.
    const url = (s: string) => new URL(`http://x.test${s}`);
    expect(cleanRedirect(url('/posts/%74all-ship'), allowed)).toBe('/posts/tall-ship');
    expect(cleanRedirect(url('/%70osts/a%2Db%5F%7Ec%2E'), allowed)).toBe('/posts/a-b_~c.');
    expect(cleanRedirect(url('/daily-planet/tags/caf%c3%a9'), allowed)).toBe(
      '/daily-planet/tags/caf%C3%A9',
    );
    expect(cleanRedirect(url('/posts/%74all/?v=1'), allowed, true)).toBe('/posts/tall');
    // Escapes that mean something else than the character are kept: `/`, `?`, `%`, space.
    expect(cleanRedirect(url('/tags/caf%C3%A9'), allowed)).toBeNull();
    expect(cleanRedirect(url('/search/a%2Fb%3Fc%25d%20e'), allowed)).toBeNull();
    expect(cleanRedirect(url('/%2F%2Fevil.test'), allowed)).toBeNull();
    expect(cleanRedirect(url('/%68arbour%2Dtimes/search?q=a'), allowed)).toBe(
      '/harbour-times/search?q=a',
    );
  });

  it('keeps the first of a repeated parameter: pages read only that one', () => {
    // Else `?tenant=daily-planet&tenant=<anything>` is one more stored copy of the preview per value.
    const url = (s: string) => new URL(`http://x.test${s}`);
    expect(cleanRedirect(url('/?tenant=a&tenant=x1'), allowed)).toBe('/?tenant=a');
    expect(cleanRedirect(url('/search?q=ferry&tenant=a&q=x2'), allowed)).toBe(
      '/search?q=ferry&tenant=a',
    );
  });
});

describe('path escapes', () => {
  it.each([
    ['/stay/manage/abc%252Edef', true],
    ['/posts/welcome%252Dto', true],
    ['/%2525/', true],
    ['/posts/caf%C3%A9', false],
    ['/search/a%20b', false],
    ['/a%25b/', false],
    ['/posts/plain', false],
    ['/x/%', true],
    ['/posts/%zz', true],
    ['/posts/%E0%A4%A', true],
  ])('%s is broken or would be decoded twice: %s', (path, expected) => {
    expect(isUnreadablePath(path)).toBe(expected);
  });
});
