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
    const post = postSummary();
    const view = await render(PostCard, { props: { post, variant: 'secondary' } });
    expect(view.body.querySelector('img.media')?.getAttribute('src')).toBe(post.cover_image_url);
    expect(view.getByText(post.excerpt).className).toContain('excerpt');
  });
});
