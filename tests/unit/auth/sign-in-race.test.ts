import { describe, expect, it } from 'vitest';
import { AstroCookies } from '../../../node_modules/astro/dist/core/cookies/index.js';
import { browserKey } from '../../../src/lib/auth/sign-in-race.ts';

/** A sign-in post as the action sees it. */
function post(headers: Record<string, string>, address = '203.0.113.7') {
  const request = new Request('https://gazette.example.com/login?_action=login', {
    method: 'POST',
    headers,
  });
  return { request, cookies: new AstroCookies(request, console), locals: { visitor: { address } } };
}

const key = (context: ReturnType<typeof post>, email = 'reader@masthead.test') =>
  browserKey(context, 'gazette', email);

describe('the browser of a sign-in (the two posts of a double-click are one)', () => {
  const cookie = 'astro-session=6f1c8a2e-1b1f-4d7e-9a31-2c1a7d0e4b55';

  it('is its session cookie as sent, whatever its address', () => {
    expect(key(post({ cookie }, '203.0.113.7'))).toBe(key(post({ cookie }, '198.51.100.1')));
    expect(key(post({ cookie }))).not.toBe(
      key(post({ cookie: 'astro-session=0b0e6c1f-8f7a-4a55-9d1e-3c2b1a0f9e88' })),
    );
  });

  it('is its address and user agent without a cookie (a first sign-in)', () => {
    const agent = { 'user-agent': 'Firefox/140' };
    expect(key(post(agent))).toBe(key(post(agent)));
    expect(key(post(agent))).not.toBe(key(post({ 'user-agent': 'Chrome/140' })));
    expect(key(post(agent))).not.toBe(key(post(agent, '198.51.100.1')));
  });

  it('is per account, however the e-mail is typed', () => {
    expect(key(post({ cookie }), ' Reader@Masthead.test')).toBe(key(post({ cookie })));
    expect(key(post({ cookie }), 'other@masthead.test')).not.toBe(key(post({ cookie })));
  });
});
