import { describe, expect, it } from 'vitest';
import { cssString, subscriberCss } from '../../../src/lib/auth/subscriber-css.ts';

describe('subscriberCss', () => {
  it('is empty for a guest', () => {
    expect(subscriberCss(null)).toBe('');
  });

  it('shows the member parts and the name for a subscriber', () => {
    const css = subscriberCss({
      id: 1,
      name: 'Jürgen Müller',
      roles: ['subscriber'],
      hasActiveSubscription: true,
    });
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

describe('/reader.css', () => {
  it('is never kept by a browser or a shared cache: a subscription bought since shows on the next page', async () => {
    const { GET } = await import('../../../src/pages/reader.css.ts');
    const locals = { tenant: { id: 'daily-planet', publishing: { baseUrl: 'http://x.test' } } };
    const answer = await GET({ locals, session: undefined } as never);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });
});
