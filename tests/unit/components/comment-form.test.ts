import { describe, expect, it } from 'vitest';
import CommentForm from '../../../src/components/comments/CommentForm.astro';
import { COMMENT_MAX } from '../../../src/lib/comments/count.ts';
import { EMPTY_VALUES } from '../../../src/lib/comments/form.ts';
import type { CommentFormState } from '../../../src/lib/comments/section.ts';
import { render } from './render.ts';

// The fixture tenant writes numbers the en-GB way.
const n = (value: number) => value.toLocaleString('en-GB');

// Markup of the comment form without a browser: labels, error wiring and what the visitor typed.
const EMPTY: CommentFormState = {
  values: EMPTY_VALUES,
  fields: {},
  error: null,
  success: null,
  replyTo: null,
};

function renderForm(state: Partial<CommentFormState>) {
  return render(CommentForm, {
    props: {
      state: { ...EMPTY, ...state },
      postSlug: 'welcome',
      action: '/posts/welcome?_action=comment#comment-form',
      cancelHref: '/posts/welcome',
      signInNext: '/posts/welcome#comment-form',
    },
    locals: { href: (path: string) => `/gazette${path}` } as App.Locals,
  });
}

describe('comment form', () => {
  it('labels the comment, name and e-mail fields and explains the guest fields', async () => {
    const view = await renderForm({});
    const content = view.getByRole('textbox', { name: 'Comment' });
    expect(content.tagName).toBe('TEXTAREA');
    expect(view.descriptions(content)).toEqual([
      `Up to ${n(COMMENT_MAX)} characters. Plain text; leave a blank line between paragraphs.`,
    ]);
    for (const name of ['Name', 'E-mail']) {
      const input = view.getByRole('textbox', { name });
      expect(input.hasAttribute('aria-invalid')).toBe(false);
      expect(view.descriptions(input)[0]).toMatch(/^An editor reviews a guest’s comment/);
    }
    // A submit button of the form: what was typed is kept while the reader signs in.
    const login = view.getByRole('button', {
      name: 'Log in to comment at once, keeping your text',
    });
    expect(login.getAttribute('name')).toBe('_signin');
    expect(login.getAttribute('value')).toBe('/posts/welcome#comment-form');
    expect(view.queryByRole('alert')).toBeNull();
  });

  it('after a refused submit: every field keeps its text, errors are announced and linked', async () => {
    const view = await renderForm({
      values: { content: 'Hello there', name: '', email: 'ada@', parentId: '', key: '' },
      fields: { name: ['Enter your name.'], email: ['Enter a valid e-mail address.'] },
      error: { kind: 'invalid', message: 'Check the highlighted fields.' },
    });
    const content = view.getByRole<HTMLTextAreaElement>('textbox', { name: 'Comment' });
    expect(content.value).toBe('Hello there');
    expect(content.hasAttribute('aria-invalid')).toBe(false);
    expect(view.descriptions(content)).toEqual([`11 of ${n(COMMENT_MAX)} characters.`]);

    const email = view.getByRole<HTMLInputElement>('textbox', { name: 'E-mail' });
    expect(email.value).toBe('ada@');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(view.descriptions(email)[1]).toBe('Error: Enter a valid e-mail address.');
    const name = view.getByRole('textbox', { name: 'Name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(view.descriptions(name)[1]).toBe('Error: Enter your name.');

    expect(view.getByRole('alert').textContent).toContain('Check the highlighted fields.');
    expect(
      view
        .getAllByRole('link')
        .filter((a) => a.getAttribute('href')?.startsWith('#'))
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Enter your name.', `#${name.id}`],
      ['Enter a valid e-mail address.', `#${email.id}`],
    ]);
  });

  it('counts characters over the limit', async () => {
    const view = await renderForm({
      values: { ...EMPTY_VALUES, content: 'x'.repeat(COMMENT_MAX + 5) },
      fields: { content: ['Shorten your comment.'] },
      error: { kind: 'invalid', message: 'Check the highlighted fields.' },
    });
    const content = view.getByRole('textbox', { name: 'Comment' });
    expect(content.getAttribute('aria-invalid')).toBe('true');
    expect(view.descriptions(content)).toEqual([
      `${n(COMMENT_MAX + 5)} of ${n(COMMENT_MAX)} characters. 5 characters too many.`,
      'Error: Shorten your comment.',
    ]);
  });
});
