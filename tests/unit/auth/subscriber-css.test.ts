import { describe, expect, it } from 'vitest';
import { cssString, readerCss } from '../../../src/lib/auth/reader-css.ts';

describe('readerCss', () => {
  it('is empty for a guest', () => {
    expect(readerCss(null)).toBe('');
  });

  it('shows the member parts and the name for a subscriber', () => {
    const css = readerCss('Jürgen Müller');
    expect(css).toContain('.when-guest{display:none!important}');
    expect(css).toContain('.reader-name::before{content:"Jürgen Müller"}');
  });

  it.each(['"}body{display:none}', 'a\\"b', '</style><script>', 'x\ny'])(
    'keeps %j inside one CSS string',
    (name) => {
      const escaped = cssString(name);
      expect(escaped).not.toMatch(/["{}<>\n]/);
    },
  );
});
