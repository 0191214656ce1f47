import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NEXT,
  safeNext,
  sessionEndedPath,
  signInNotice,
  signInPath,
} from '../../../src/lib/auth/next.ts';

describe('signInPath', () => {
  it.each([
    ['/epaper/x?page=5', 'login', '/login?next=%2Fepaper%2Fx%3Fpage%3D5'],
    ['/posts/x#comment-form', 'login', '/login?next=%2Fposts%2Fx%23comment-form'],
    ['/account', 'register', '/register?next=%2Faccount'],
  ] as const)('%s (%s)', (next, page, expected) => {
    expect(signInPath(next, page)).toBe(expected);
  });
});

// Before: an account page that found the sign-in expired sent the reader to a bare login page.
describe('sessionEndedPath', () => {
  it('goes to a login page that says why, and back to where the reader was', () => {
    const path = sessionEndedPath('/account');
    expect(path).toBe('/login?next=%2Faccount&session-ended');
    const params = new URL(path, 'https://site.invalid').searchParams;
    expect(signInNotice(params)).toBe('login.sessionEnded');
    expect(safeNext(params.get('next'))).toBe('/account');
  });
});

describe('signInNotice', () => {
  it.each([
    ['?signed-out=', 'login.signedOut'],
    ['?next=%2Faccount&session-ended', 'login.sessionEnded'],
    ['?next=%2Faccount', undefined],
    ['', undefined],
  ])('%s', (query, expected) => {
    expect(signInNotice(new URLSearchParams(query))).toBe(expected);
  });
});

describe('safeNext', () => {
  it.each([
    ['/account', '/account'],
    ['/posts/harbour-news?ref=1#comments', '/posts/harbour-news?ref=1#comments'],
    ['/plans/', '/plans/'],
    ['/', '/'],
    ['/epaper/%2F%2Fevil', '/epaper/%2F%2Fevil'],
    // An encoded slash stays inside a segment: a path of this site, never a host.
    ['/%2F/evil.example', '/%2F/evil.example'],
    ['/posts/caf\u00e9', '/posts/caf%C3%A9'],
  ])('keeps the same-site path %s', (raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });

  // Each of these, answered as `Location`, would take the browser to another host (or is no path).
  it.each([
    [null],
    [undefined],
    [''],
    ['account'],
    ['https://evil.example/account'],
    ['https:evil.example'],
    ['http:/evil.example'],
    ['//evil.example/account'],
    ['//evil.example'],
    ['/.//evil.example'],
    ['/./evil.example/..//evil.example'],
    ['/a/..//evil.example'],
    ['/%2e//evil.example'],
    ['/%2E%2E//evil.example'],
    ['/\\evil.example'],
    ['/\\/evil.example'],
    ['\\\\evil.example'],
    ['\\/evil.example'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['/\r\n/evil.example'],
    ['/ /evil.example'.replace(' ', '\u0000')],
    ['/\u0085/evil.example'],
    ['//user:pass@evil.example'],
    ['/@evil.example'.replace('/@', '//@')],
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

  it('never answers a path a browser reads as a host', () => {
    const hostile = ['/.//x', '/%2F/x', '//x', '/\\x', '\\\\x', 'https:x', '/\t/x', '/././/x'];
    for (const raw of hostile) {
      const next = safeNext(raw, '/fallback');
      expect(next.startsWith('//')).toBe(false);
      expect(new URL(next, 'https://tenant.example').origin).toBe('https://tenant.example');
    }
  });

  it('checks against the tenant origin given', () => {
    expect(safeNext('/account', '/', 'https://news.example')).toBe('/account');
    expect(safeNext('/.//news.example/x', '/', 'https://news.example')).toBe('/');
  });

  it('uses the given fallback', () => {
    expect(safeNext('//evil.example', '/')).toBe('/');
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeNext('/a/../../account')).toBe('/account');
  });
});
