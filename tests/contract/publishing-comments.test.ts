import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectBody, expectError, useMock } from './helpers.ts';
import { CommentSchema, page } from './schemas.ts';

const t = useMock();
const Thread = page(CommentSchema);
const Created = z.strictObject({
  data: z.strictObject({
    id: z.number(),
    content: z.string(),
    status: z.enum(['pending', 'approved']),
  }),
  message: z.string(),
});
const path = '/posts/welcome-to-our-new-website/comments';
const guest = { author_name: 'Guest Writer', author_email: 'guest@example.com' };

describe('comment threads', () => {
  it('lists approved top-level comments oldest first with nested approved replies', async () => {
    const body = expectBody(await t.pub(path), 200, Thread);
    expect(body.meta.per_page).toBe(20);
    expect(body.data.length).toBe(3);
    const all = JSON.stringify(body.data);
    expect(all).not.toContain('"status":"pending"');
    expect(body.data[0]?.replies[0]?.replies.length).toBe(1);
    expect(body.data[0]?.replies[0]?.parent_id).toBe(body.data[0]?.id);
    const dates = body.data.map((c) => c.created_at);
    expect([...dates].sort()).toEqual(dates);
  });

  it('answers 404 for the comments of unknown posts', async () => {
    expectError(await t.pub('/posts/nope/comments'), 404, 'Post not found.');
  });
});

describe('posting and moderation', () => {
  it('keeps a guest comment pending until an editor approves it', async () => {
    const posted = expectBody(
      await t.pub(path, { method: 'POST', body: { content: 'Guest says hi', ...guest } }),
      201,
      Created,
    );
    expect(posted).toMatchObject({
      data: { status: 'pending' },
      message: 'Your comment is awaiting moderation.',
    });
    expect(JSON.stringify((await t.pub(path)).body)).not.toContain('Guest says hi');

    const editor = await t.login('editor');
    const queue = expectBody(
      await t.pub('/comments?status=pending', { token: editor }),
      200,
      page(z.looseObject({ id: z.number(), status: z.string() })),
    );
    expect(queue.data.map((c) => c.id)).toContain(posted.data.id);

    const approved = await t.pub(`/comments/${posted.data.id}/approve`, {
      method: 'POST',
      token: editor,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ data: { id: posted.data.id, status: 'approved' } });
    expect(JSON.stringify((await t.pub(path)).body)).toContain('Guest says hi');
  });

  it('publishes a signed-in comment at once and accepts replies via parent_id', async () => {
    const token = await t.login('reader');
    const top = expectBody(
      await t.pub(path, { method: 'POST', token, body: { content: 'Signed in' } }),
      201,
      Created,
    );
    expect(top).toMatchObject({ data: { status: 'approved' }, message: 'Comment published.' });
    const reply = expectBody(
      await t.pub(path, {
        method: 'POST',
        token,
        body: { content: 'Reply', parent_id: top.data.id },
      }),
      201,
      Created,
    );
    const thread = expectBody(await t.pub(`${path}?per_page=50`), 200, Thread);
    const parent = thread.data.find((c) => c.id === top.data.id);
    expect(parent?.author_name).toBe('Riley Reader');
    expect(parent?.replies.map((r) => r.id)).toEqual([reply.data.id]);
  });

  it.each([
    [
      {},
      {
        content: ['The content field is required.'],
        author_name: ['The author name field is required.'],
      },
    ],
    [
      { ...guest, content: 'x'.repeat(2001) },
      { content: ['The content field must not be greater than 2000 characters.'] },
    ],
    [
      { ...guest, content: 'x', author_email: 'nope' },
      { author_email: ['The author email field must be a valid email address.'] },
    ],
    [
      { ...guest, content: 'x', parent_id: 999999 },
      { parent_id: ['The selected parent id is invalid.'] },
    ],
  ])('rejects guest comment %# with 422', async (body, errors) => {
    const res = await t.pub(path, { method: 'POST', body });
    expectError(res, 422, Object.values(errors)[0]?.[0] ?? '', errors);
  });

  it('rejects a reply to a pending comment', async () => {
    const pending = expectBody(
      await t.pub(path, { method: 'POST', body: { content: 'Pending', ...guest } }),
      201,
      Created,
    );
    const res = await t.pub(path, {
      method: 'POST',
      body: { content: 'x', parent_id: pending.data.id, ...guest },
    });
    expectError(res, 422, 'The selected parent id is invalid.');
  });

  it('guards moderation: 401 without token, 403 for subscribers, 404 for unknown comments', async () => {
    expectError(await t.pub('/comments?status=pending'), 401, 'Unauthenticated.');
    const sub = await t.login('subscriber');
    expectError(
      await t.pub('/comments?status=pending', { token: sub }),
      403,
      'This action is unauthorized.',
    );
    expectError(
      await t.pub('/comments/1/approve', { method: 'POST', token: sub }),
      403,
      'This action is unauthorized.',
    );
    const admin = await t.login('admin');
    expectError(
      await t.pub('/comments/999999/approve', { method: 'POST', token: admin }),
      404,
      'Comment not found.',
    );
    expectError(
      await t.pub('/comments?status=spam', { token: admin }),
      422,
      'The selected status is invalid.',
    );
  });
});
