import { describe, expect, it } from 'vitest';
import SiteHeader from '../../../src/components/layout/SiteHeader.astro';
import { render } from './render.ts';
import { subscriberCss } from '../../../src/lib/auth/subscriber-css.ts';

const items = [
  { label: 'Sport', path: '/categories/sport' },
  { label: 'Culture', path: '/categories/culture' },
  { label: 'Search', path: '/search' },
];

/** The header on the address the visitor asked for (`currentPath`: path and query). */
async function header(currentPath: string) {
  const view = await render(SiteHeader, { props: { items, currentPath } });
  const login = view.getByRole('link', { name: 'Log in' }).getAttribute('href') ?? '';
  return {
    current: (name: string) => view.getByRole('link', { name }).getAttribute('aria-current'),
    next: new URL(login, 'http://x.test').searchParams.get('next'),
  };
}

describe('the site header on a later page of a list', () => {
  it('marks the section as the one the page is in, not as this page, and signs in back to this page', async () => {
    const view = await header('/categories/sport/page/2');
    expect(view.current('Sport')).toBe('true');
    expect(view.current('Culture')).toBeNull();
    expect(view.next).toBe('/categories/sport/page/2');
  });

  it('keeps the query of a search for after signing in, and marks search by its path', async () => {
    const view = await header('/search/page/2?q=ferry');
    expect(view.current('Search')).toBe('true');
    expect(view.next).toBe('/search/page/2?q=ferry');
    expect((await header('/search?q=ferry')).current('Search')).toBe('page');
  });

  it('never sends an account page round through sign-in', async () => {
    expect((await header('/account?tab=1')).next).toBeNull();
  });

  // Before: plain `/login` there, so signing in from it ended on the account page.
  it('on the login and register pages, keeps where the reader was going', async () => {
    expect((await header('/register?next=%2Fposts%2Fx')).next).toBe('/posts/x');
    expect((await header('/login?next=%2Fposts%2Fx&posted=abc')).next).toBe('/posts/x');
    for (const unsafe of ['//evil.example', 'https://evil.example', '%2F%2Fevil.example'])
      expect((await header(`/register?next=${unsafe}`)).next).toBeNull();
  });
});

describe('Subscribe in the bar, as /reader.css leaves it for who is signed in', () => {
  const reader = (roles: string[], hasActiveSubscription: boolean) => ({
    id: 7,
    name: 'Riley Reader',
    roles,
    hasActiveSubscription,
  });

  it.each([
    ['a guest', true, null],
    ['a signed-in reader without a subscription', true, reader(['subscriber'], false)],
    ['a paying subscriber', false, reader(['subscriber'], true)],
    ['an editor (reads everything already)', false, reader(['editor'], false)],
  ])('%s: shown %s', async (_who, shown, user) => {
    const view = await render(SiteHeader, { props: { items, currentPath: '/' } });
    const style = view.body.ownerDocument.createElement('style');
    style.textContent = subscriberCss(user);
    view.body.append(style);
    // Hidden by the stylesheet means gone for assistive technology too (display: none).
    expect(view.queryByRole('link', { name: 'Subscribe' }) !== null).toBe(shown);
  });
});
