import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, safeNext } from '../../../src/lib/auth/next.ts';

describe('safeNext', () => {
  it.each([
    ['/account', '/account'],
    ['/posts/harbour-news?ref=1#comments', '/posts/harbour-news?ref=1#comments'],
    ['/plans/', '/plans/'],
    ['/', '/'],
    ['/epaper/%2F%2Fevil', '/epaper/%2F%2Fevil'],
  ])('keeps the same-site path %s', (raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['account'],
    ['https://evil.example/account'],
    ['//evil.example/account'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['javascript:alert(1)'],
    ['/account\n/evil'],
    ['/acc\tount'],
    ['/login'],
    ['/login?next=/account'],
    ['/register/'],
    ['/logout'],
    [`/${'a'.repeat(600)}`],
  ])('falls back for %j', (raw) => {
    expect(safeNext(raw)).toBe(DEFAULT_NEXT);
  });

  it('uses the given fallback', () => {
    expect(safeNext('//evil.example', '/')).toBe('/');
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeNext('/a/../../account')).toBe('/account');
  });
});
