import { describe, expect, it } from 'vitest';
import SiteHeader from '../../../src/components/layout/SiteHeader.astro';
import { render } from './render.ts';

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
});
