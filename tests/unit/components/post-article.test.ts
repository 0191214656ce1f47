import { describe, expect, it } from 'vitest';
import PostArticle from '../../../src/components/posts/PostArticle.astro';
import { postSummary } from '../../fixtures/post.ts';
import { render } from './render.ts';

const tags = [
  { id: 1, name: 'Ferries', slug: 'ferries' },
  { id: 2, name: 'Winter', slug: 'winter' },
];

describe('a post', () => {
  it('ends with its tags, each a link to the tag’s archive', async () => {
    const post = { ...postSummary({ tags }), content: '<p>The new timetable.</p>' };
    const view = await render(PostArticle, { props: { post } });
    const list = view.getByRole('list', { name: 'Tags' });
    const links = [...list.querySelectorAll('a')];
    expect(links.map((link) => link.textContent)).toEqual(['#Ferries', '#Winter']);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/tags/ferries',
      '/tags/winter',
    ]);
    // After the text, not in the header's byline.
    expect(view.body.querySelector('.content ~ ul.tags')).toBe(list);
  });

  it('without tags, shows no empty list', async () => {
    const post = { ...postSummary({ tags: [] }), content: '<p>The new timetable.</p>' };
    const view = await render(PostArticle, { props: { post } });
    expect(view.queryByRole('list', { name: 'Tags' })).toBeNull();
  });

  it('shows its cover through the site’s image route, loaded first', async () => {
    const post = {
      ...postSummary({ cover_image_url: 'https://api.example.com/storage/ferry.jpg' }),
      content: '',
    };
    const view = await render(PostArticle, { props: { post } });
    const cover = view.body.querySelector('img.cover');
    expect(cover?.getAttribute('src')).toMatch(/^\/_img\/u\//);
    expect(cover?.getAttribute('fetchpriority')).toBe('high');
  });
});
