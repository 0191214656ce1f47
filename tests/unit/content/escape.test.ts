import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeRegExp, unescapeHtml } from '../../../src/lib/content/escape.ts';

describe('escapeHtml', () => {
  it.each([
    ['<b>Tom & "Jerry"</b>', '&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;'],
    // Every attribute the site writes is double-quoted: an apostrophe neither ends nor breaks one.
    ["O'Brien", "O'Brien"],
    ['&amp;', '&amp;amp;'],
  ])('%s → %s', (text, html) => {
    expect(escapeHtml(text)).toBe(html);
  });
});

describe('unescapeHtml', () => {
  it('reads back what escapeHtml wrote, once', () => {
    const text = '<b>Tom & "Jerry"</b> &amp;';
    expect(unescapeHtml(escapeHtml(text))).toBe(text);
  });
});

describe('escapeRegExp', () => {
  it('matches the text literally', () => {
    const text = 'https://a.example/x?y=(1)+[2]*$';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });
});
