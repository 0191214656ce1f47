import { describe, expect, it } from 'vitest';
import CommentThread from '../../../src/components/comments/CommentThread.astro';
import type { ThreadNode } from '../../../src/lib/comments/thread.ts';
import { render } from './render.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { i18nFor } from '../../../src/lib/i18n/index.ts';

const node = (id: string, depth: number, replies: ThreadNode[] = []): ThreadNode => ({
  id,
  authorName: `Reader ${id}`,
  content: `First line of ${id}\nsecond line of ${id}`,
  createdAt: '2026-11-22T10:00:00Z',
  depth,
  replies,
});

describe('comment thread', () => {
  it('shows nesting in the heading level (h3 down to h6, capped) and names each comment by its author', async () => {
    const deepest = node('5', 4);
    const thread = [node('1', 0, [node('2', 1, [node('3', 2, [node('4', 3, [deepest])])])])];
    const view = await render(CommentThread, {
      props: {
        comments: thread,
        replyHref: (id: string) => `?reply=${id}#comment-form`,
        label: 'Comments',
      },
    });
    const headings = ['1', '2', '3', '4', '5'].map(
      (id) => view.body.querySelector(`#comment-${id}-author`)?.tagName,
    );
    expect(headings).toEqual(['H3', 'H4', 'H5', 'H6', 'H6']);
    for (const id of ['1', '5']) {
      const article = view.body.querySelector(`#comment-${id} > article`);
      expect(article?.getAttribute('aria-labelledby')).toBe(`comment-${id}-author`);
      expect(view.body.querySelector(`#comment-${id}-author`)?.textContent?.trim()).toBe(
        `Reader ${id}`,
      );
    }
  });

  it("keeps a comment's line breaks, text escaped", async () => {
    const comment = { ...node('7', 0), content: 'Line one <b>not bold</b>\nline two' };
    const view = await render(CommentThread, {
      props: {
        comments: [comment],
        label: 'Comments',
      },
    });
    const paragraph = view.body.querySelector('#comment-7 .body p');
    expect(paragraph?.innerHTML.replace(/ data-astro-cid-\w+=""/g, '')).toBe(
      'Line one &lt;b&gt;not bold&lt;/b&gt;<br>line two',
    );
  });
});

describe('comment thread in another language', () => {
  it('names a comment whose author left no name in the page’s language', async () => {
    const tenant = buildTenant({ locale: 'de-DE' });
    const view = await render(CommentThread, {
      props: {
        comments: [{ ...node('8', 0), authorName: '' }],
        replyHref: (id: string) => `?reply=${id}#comment-form`,
        label: 'Kommentare',
      },
      locals: { tenant, i18n: i18nFor(tenant) } as App.Locals,
    });
    expect(view.body.querySelector('#comment-8-author')?.textContent?.trim()).toBe('Anonym');
    expect(view.body.textContent).not.toContain('Anonymous');
  });
});
