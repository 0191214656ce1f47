import { expect, it } from 'vitest';
import Pagination from '../../../src/components/nav/Pagination.astro';
import { paginate } from '../../../src/lib/reading/pagination.ts';
import { render } from './render.ts';

it('links every page but the current one, which is marked as current and named once', async () => {
  const model = paginate({ current: 3, last: 9, perPage: 12 }, (page) => `/sport?page=${page}`);
  const view = await render(Pagination, { props: { model } });
  const links = view.getAllByRole('link').map((link) => link.textContent?.replace(/\s+/g, ' '));
  expect(links).toEqual(['← Newer', 'Page 1', 'Page 2', 'Page 4', 'Page 5', 'Page 9', 'Older →']);
  const current = view.body.querySelectorAll('[aria-current="page"]');
  expect(
    [...current].map((mark) => [mark.tagName, mark.textContent?.replace(/\s+/g, ' ')]),
  ).toEqual([['SPAN', 'Page 3']]);
  expect(view.getByRole('link', { name: 'Page 2' }).getAttribute('href')).toBe('/sport?page=2');
});
