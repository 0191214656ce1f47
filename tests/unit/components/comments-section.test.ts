import { describe, expect, it } from 'vitest';
import CommentsSection from '../../../src/components/comments/CommentsSection.astro';
import { EMPTY_VALUES } from '../../../src/lib/comments/form.ts';
import type { CommentsView } from '../../../src/lib/comments/section.ts';
import { render } from './render.ts';

// The section around the thread and the form: where the form sends the reader's post.
const reply = { id: '196', authorName: 'Riley Reader', content: 'Top comment', createdAt: null };

function view(page: { current: number; last: number }, counted = true): CommentsView {
  return {
    thread: [{ ...reply, depth: 0, replies: [] }],
    count: 1,
    total: 51,
    page: { ...page, counted },
    unavailable: false,
    form: {
      values: { ...EMPTY_VALUES, parentId: reply.id },
      fields: {},
      error: null,
      success: null,
      replyTo: { id: reply.id, authorName: reply.authorName },
    },
  };
}

const formAction = async (page: { current: number; last: number }) => {
  const rendered = await render(CommentsSection, {
    props: { view: view(page), postSlug: 'welcome' },
  });
  const action = rendered.body.querySelector('#comment-form form')?.getAttribute('action') ?? '';
  return new URL(action, 'https://site.test');
};

describe('comments section', () => {
  it('posts a reply on a later comments page back to that page, where its thread is', async () => {
    // The result page (POST → 303 → GET) keeps the post's query: without the page, a reply from
    // page 2 came back on page 1, its target gone, and a retry went out as a new comment.
    const action = await formAction({ current: 2, last: 2 });
    expect(action.pathname).toBe('/posts/welcome');
    expect(action.searchParams.get('comments-page')).toBe('2');
    // And the comment answered: reloaded once its result is taken, the page is still that reply.
    expect(action.searchParams.get('reply')).toBe(reply.id);
    expect(action.searchParams.get('_action')).toBe('postComment');
    expect(action.hash).toBe('#comment-form');
  });

  it('heads a later page with the thread’s total, not the comments on that page', async () => {
    const rendered = await render(CommentsSection, {
      props: { view: view({ current: 2, last: 2 }), postSlug: 'welcome' },
    });
    expect(rendered.getByRole('heading', { level: 2 }).textContent?.trim()).toBe('Comments (51)');
  });

  it('on an API that does not count its pages, names the page and links the next, no "of M"', async () => {
    const rendered = await render(CommentsSection, {
      props: { view: view({ current: 2, last: 3 }, false), postSlug: 'welcome' },
    });
    const pages = rendered.getByRole('navigation', { name: /comment pages/i });
    expect(pages.querySelector('.muted')?.textContent?.trim()).toBe('Page 2');
    const links = [...pages.querySelectorAll('a')].map((a) => a.textContent?.trim());
    expect(links).toEqual(['Earlier comments', 'Later comments']);
  });

  it.each(['café-crème', 'v2.0-release', '100%-sure', '東京-report', 'what?#not'])(
    'sends the form, replies, pages and sign-in of the post %s to that post',
    async (slug) => {
      const rendered = await render(CommentsSection, {
        props: { view: view({ current: 1, last: 2 }), postSlug: slug },
      });
      const at = (href: string | null | undefined) => new URL(href ?? '', 'https://site.test');
      const form = rendered.body.querySelector('#comment-form form');
      const addresses = [
        form?.getAttribute('action'),
        ...[...rendered.body.querySelectorAll('#comments a[href^="/posts/"]')].map((a) =>
          a.getAttribute('href'),
        ),
      ].map(at);
      expect(addresses.length).toBeGreaterThan(2);
      for (const address of addresses)
        expect(decodeURIComponent(address.pathname)).toBe(`/posts/${slug}`);
      expect(form?.querySelector<HTMLInputElement>('input[name="post"]')?.value).toBe(slug);
      const login = rendered.getByRole('button', { name: /sign in|log in/i });
      const next = at(login.getAttribute('value'));
      expect(decodeURIComponent(next.pathname)).toBe(`/posts/${slug}`);
      expect(next.hash).toBe('#comment-form');
    },
  );

  it('signs in back to the reply being written, on its comments page', async () => {
    // Without `reply` the reader came back to a new top-level comment; without the page, to a
    // first page where the comment answered may not be listed.
    const rendered = await render(CommentsSection, {
      props: { view: view({ current: 2, last: 2 }), postSlug: 'welcome' },
    });
    const login = rendered.getByRole('button', { name: /log in/i });
    const next = new URL(login.getAttribute('value') ?? '', 'https://site.test');
    expect(next.pathname).toBe('/posts/welcome');
    expect(next.searchParams.get('reply')).toBe(reply.id);
    expect(next.searchParams.get('comments-page')).toBe('2');
    expect(next.hash).toBe('#comment-form');
  });

  it('keeps the first page’s address plain', async () => {
    const action = await formAction({ current: 1, last: 2 });
    expect(action.searchParams.has('comments-page')).toBe(false);
    expect(action.searchParams.get('_action')).toBe('postComment');
  });
});
