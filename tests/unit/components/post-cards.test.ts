import { describe, expect, it } from 'vitest';
import PostCards from '../../../src/components/posts/PostCards.astro';
import { postSummary } from '../../fixtures/post.ts';
import { render } from './render.ts';

describe('post cards', () => {
  it('without a picture, reads like the others: the excerpt once, as body text, no stand-in', async () => {
    const post = postSummary({ cover_image_url: null });
    const view = await render(PostCards, { props: { posts: [post], variant: 'secondary' } });
    expect(view.body.querySelector('img')).toBeNull();
    expect(view.getAllByText(post.excerpt)).toHaveLength(1);
    expect(view.getByText(post.excerpt).className).toContain('excerpt');
    expect(view.body.querySelector('.media')).toBeNull();
  });

  it('with a picture, shows it above the same excerpt', async () => {
    // A picture on the tenant's publishing origin, which the image route may fetch.
    const post = postSummary({ cover_image_url: 'https://api.example.com/storage/ferry.jpg' });
    const view = await render(PostCards, { props: { posts: [post], variant: 'secondary' } });
    const picture = view.body.querySelector('.media img');
    // Through the site's image route, in sizes: never the upstream's own address.
    expect(picture?.getAttribute('src')).toMatch(/^\/_img\/u\//);
    expect(picture?.getAttribute('srcset')).toContain('/_img/u/');
    expect(view.getByText(post.excerpt).className).toContain('excerpt');
  });

  it('one card per story in order, the first eagerCount pictures eager, at the heading level asked', async () => {
    const posts = ['ferry', 'bridge', 'harbour'].map((name, index) =>
      postSummary({
        id: index + 1,
        slug: name,
        title: `The ${name}`,
        cover_image_url: `https://api.example.com/storage/${name}.jpg`,
      }),
    );
    const view = await render(PostCards, {
      props: { posts, variant: 'grid', eagerCount: 1, headingLevel: 3 },
    });
    const cards = [...view.body.querySelectorAll('article')];
    expect(cards.map((card) => card.querySelector('h3 a')?.textContent)).toEqual([
      'The ferry',
      'The bridge',
      'The harbour',
    ]);
    expect(view.body.querySelector('h2')).toBeNull();
    expect(cards.map((card) => card.querySelector('img')?.getAttribute('loading'))).toEqual([
      'eager',
      'lazy',
      'lazy',
    ]);
  });

  it('list headlines have no picture and no excerpt', async () => {
    const post = postSummary({ cover_image_url: 'https://api.example.com/storage/ferry.jpg' });
    const view = await render(PostCards, { props: { posts: [post], variant: 'list' } });
    expect(view.body.querySelector('img')).toBeNull();
    expect(view.queryByText(post.excerpt)).toBeNull();
    expect(view.body.querySelector('h2 a')?.getAttribute('href')).toBe(`/posts/${post.slug}`);
  });

  it("grid cards name the story's tags as links to their pages; other cards do not", async () => {
    const post = postSummary({
      tags: [
        { name: 'Ferries', slug: 'ferries' },
        { name: 'Winter', slug: 'winter' },
      ],
    });
    const grid = await render(PostCards, { props: { posts: [post], variant: 'grid' } });
    const list = grid.getByRole('list', { name: 'Tags' });
    expect(
      [...list.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['#Ferries', '/tags/ferries'],
      ['#Winter', '/tags/winter'],
    ]);
    const secondary = await render(PostCards, { props: { posts: [post], variant: 'secondary' } });
    expect(secondary.queryByRole('list')).toBeNull();
  });
});
