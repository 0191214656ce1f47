import { describe, expect, it } from 'vitest';
import PostCard from '../../../src/components/posts/PostCard.astro';
import { postSummary } from '../../fixtures/post.ts';
import { render } from './render.ts';

describe('post card', () => {
  it('without a picture, reads like the others: the excerpt once, as body text, no stand-in', async () => {
    const post = postSummary({ cover_image_url: null });
    const view = await render(PostCard, { props: { post, variant: 'secondary' } });
    expect(view.body.querySelector('img')).toBeNull();
    expect(view.getAllByText(post.excerpt)).toHaveLength(1);
    expect(view.getByText(post.excerpt).className).toContain('excerpt');
    expect(view.body.querySelector('.media')).toBeNull();
  });

  it('with a picture, shows it above the same excerpt', async () => {
    // A picture on the tenant's publishing origin, which the image route may fetch.
    const post = postSummary({ cover_image_url: 'https://api.example.com/storage/ferry.jpg' });
    const view = await render(PostCard, { props: { post, variant: 'secondary' } });
    const picture = view.body.querySelector('.media img');
    // Through the site's image route, in sizes: never the upstream's own address.
    expect(picture?.getAttribute('src')).toMatch(/^\/_img\/u\//);
    expect(picture?.getAttribute('srcset')).toContain('/_img/u/');
    expect(view.getByText(post.excerpt).className).toContain('excerpt');
  });
});
