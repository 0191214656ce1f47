import { describe, expect, it } from 'vitest';
import {
  commentsShown,
  formState,
  loadCommentsView,
  shownCommentsQuery,
} from '../../../src/lib/comments/section.ts';
import { buildThread } from '../../../src/lib/comments/thread.ts';
import type { CommentOutcome } from '../../../src/lib/comments/post.ts';
import type { CommentsView } from '../../../src/lib/comments/section.ts';
import type { PublishingClient } from '../../../src/lib/publishing/client.ts';
import type { Comment } from '../../../src/lib/publishing/schema.ts';
import type { PageInfo } from '../../../src/lib/upstream/parse.ts';

const thread = buildThread([
  {
    id: 1,
    content: 'Top',
    author_name: 'Grace O.',
    created_at: '2026-11-20T03:25:00+00:00',
    status: 'approved',
    parent_id: null,
    replies: [
      {
        id: 2,
        content: 'Reply',
        author_name: 'Tom Keller',
        created_at: '2026-11-20T10:57:00+00:00',
        status: 'approved',
        parent_id: 1,
        replies: [],
      },
    ],
  },
]);

const typed = { content: 'My words', name: 'Gina', email: 'gina@', parentId: '2', key: '' };

describe('formState', () => {
  it.each([
    ['a listed comment', '2', { id: '2', authorName: 'Tom Keller' }, '2'],
    ['an unknown comment', '99', null, ''],
    ['garbage', '2abc', null, ''],
    ['no reply', null, null, ''],
  ])('?reply= %s', (_label, reply, replyTo, parentId) => {
    const state = formState(thread, { reply, outcome: undefined });
    expect(state.replyTo).toEqual(replyTo);
    expect(state.values).toEqual({ content: '', name: '', email: '', parentId, key: '' });
    expect(state.error).toBeNull();
  });

  it('refills a failed submission with everything typed, reply target included', () => {
    const outcome: CommentOutcome = {
      ok: false,
      kind: 'invalid',
      message: 'Check the fields.',
      fields: { email: ['Bad e-mail'] },
      values: typed,
    };
    // The submission wins over a stale ?reply= in the address.
    const state = formState(thread, { reply: '1', outcome });
    expect(state.values).toEqual(typed);
    expect(state.fields).toEqual({ email: ['Bad e-mail'] });
    expect(state.error).toEqual({ kind: 'invalid', message: 'Check the fields.' });
    expect(state.replyTo).toEqual({ id: '2', authorName: 'Tom Keller' });
  });

  it('puts back what was typed before signing in, with its reply target and no notice', () => {
    const state = formState(thread, { reply: null, outcome: undefined, draft: typed });
    expect(state.values).toEqual(typed);
    expect(state.replyTo).toEqual({ id: '2', authorName: 'Tom Keller' });
    expect(state.error).toBeNull();
    expect(state.success).toBeNull();
  });

  it('drops a reply target that is no longer listed but keeps the text', () => {
    const outcome: CommentOutcome = {
      ok: false,
      kind: 'unavailable',
      message: 'Down.',
      fields: {},
      values: { ...typed, parentId: '77' },
    };
    const state = formState(thread, { reply: null, outcome });
    expect(state.replyTo).toBeNull();
    expect(state.values).toEqual({ ...typed, parentId: '' });
  });

  it('clears the form after a success and says whether the comment is listed', () => {
    const listed = formState(thread, {
      reply: '1',
      outcome: { ok: true, status: 'approved', id: '2', message: 'Published.', content: 'Mine' },
    });
    expect(listed.success).toEqual({
      status: 'approved',
      id: '2',
      message: 'Published.',
      listed: true,
      content: 'Mine',
    });
    expect(listed.values.content).toBe('');
    expect(listed.replyTo).toBeNull();
    const pending = formState(thread, {
      reply: null,
      outcome: {
        ok: true,
        status: 'pending',
        id: '50',
        message: 'Awaiting.',
        content: 'Mine, waiting',
      },
    });
    expect(pending.success?.listed).toBe(false);
    // The guest sees what they posted while it waits for a moderator.
    expect(pending.success?.content).toBe('Mine, waiting');
  });
});

describe('commentsShown: what a kept page body may be keyed by', () => {
  const view = (request: Parameters<typeof formState>[1], unavailable = false) => ({
    thread,
    count: 2,
    total: 2,
    page: { current: 1, last: 1, counted: true },
    unavailable,
    form: formState(thread, request),
  });

  it('names the thread and page of a plain visit', () => {
    expect(commentsShown(view({ reply: null, outcome: undefined }))).toEqual([thread, 1, 1]);
  });

  it('keeps nothing that shows a visit its own state: a reply target, a notice, typed text', () => {
    expect(commentsShown(view({ reply: '2', outcome: undefined }))).toBeNull();
    const failed: CommentOutcome = {
      ok: false,
      kind: 'invalid',
      message: 'Check the fields.',
      fields: {},
      values: typed,
    };
    expect(commentsShown(view({ reply: null, outcome: failed }))).toBeNull();
    const published: CommentOutcome = {
      ok: true,
      status: 'pending',
      id: '3',
      message: 'Awaiting review.',
      content: 'Waiting',
    };
    expect(commentsShown(view({ reply: null, outcome: published }))).toBeNull();
    const draft = { ...typed, parentId: '' };
    expect(commentsShown(view({ reply: null, outcome: undefined, draft }))).toBeNull();
  });

  it('keeps nothing while the comments are unavailable (no list to name)', () => {
    expect(commentsShown(view({ reply: null, outcome: undefined }, true))).toBeNull();
  });
});

describe('loadCommentsView: the number in "Comments (N)"', () => {
  const comment = (id: number, replies: Comment[] = []): Comment => ({
    id,
    content: `Comment ${id}`,
    author_name: 'Reader',
    created_at: null,
    status: 'approved',
    parent_id: null,
    replies,
  });
  // Top-level comments with their replies, as the API lists them, and its page meta.
  const listing = (items: Comment[], page: PageInfo) =>
    ({
      listComments: () => Promise.resolve({ items, page }),
    }) as unknown as PublishingClient;
  const load = (client: PublishingClient, page: string | null = null) =>
    loadCommentsView(client, 'welcome', { reply: null, page, outcome: undefined });

  it('counts the whole thread, replies included, when it fits on one page', async () => {
    const items = [comment(1, [comment(2), comment(3)]), comment(4)];
    const view = await load(listing(items, { current: 1, last: 1, perPage: 50, total: 2 }));
    expect(view.total).toBe(4);
  });

  it('on a later page of a long thread, says the thread’s total, not this page’s count', async () => {
    const items = [comment(51), comment(52), comment(53, [comment(54)])];
    const view = await load(listing(items, { current: 2, last: 2, perPage: 50, total: 53 }), '2');
    expect(view.count).toBe(4);
    expect(view.total).toBe(53);
  });

  it('says no number for a long thread whose answer gave no total (it is not known)', async () => {
    // pageInfo fills a missing total with the items of the page.
    const items = [comment(1), comment(2)];
    const view = await load(listing(items, { current: 1, last: 3, perPage: 2, total: 2 }));
    expect(view.total).toBeNull();
  });
});

describe('shownCommentsQuery: a post address asking for what its page does not show', () => {
  const view = (
    reply: string | null,
    page: { current: number; last: number; counted?: boolean },
  ): CommentsView => ({
    thread,
    count: 2,
    total: 2,
    page: { counted: true, ...page },
    unavailable: false,
    form: formState(thread, { reply, outcome: undefined }),
  });
  const moved = (query: string, shown: CommentsView) =>
    shownCommentsQuery(shown, new URLSearchParams(query))?.toString() ?? null;

  it.each([
    ['', null, 1],
    ['reply=2', '2', 1],
    ['comments-page=3&reply=1', '1', 3],
    ['tenant=daily-planet&reply=1', '1', 1],
  ])('leaves ?%s as it is', (query, reply, current) => {
    expect(moved(query, view(reply, { current, last: 3 }))).toBeNull();
  });

  it.each([
    ['reply=abc', ''],
    ['reply=123456', ''],
    ['reply=02', ''],
    ['comments-page=abc', ''],
    ['comments-page=0', ''],
    ['comments-page=1', ''],
    ['comments-page=02&reply=2abc', ''],
    ['tenant=daily-planet&comments-page=x', 'tenant=daily-planet'],
  ])('sends ?%s to the first page, reply dropped (?%s)', (query, to) => {
    const reply = new URLSearchParams(query).get('reply');
    expect(moved(query, view(reply, { current: 1, last: 3 }))).toBe(to);
  });

  it('sends a page past the last one to the last, the listed reply kept', () => {
    // loadCommentsView reads the last page for a page past it.
    expect(moved('comments-page=999999&reply=2', view('2', { current: 3, last: 3 }))).toBe(
      'comments-page=3&reply=2',
    );
  });

  it('sends a later page of a thread with no comments to the post', () => {
    expect(moved('comments-page=7', view(null, { current: 7, last: 1 }))).toBe('');
    // Unless the API does not count its pages: a later one may exist.
    expect(
      moved('comments-page=7', view(null, { current: 7, last: 1, counted: false })),
    ).toBeNull();
  });
});
