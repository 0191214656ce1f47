import { dialectOf } from '../lib/dialect.ts';
import { isoTime } from '../lib/dates.ts';
import { forbidden, invalid, notFound, readBody } from '../lib/http.ts';
import { pageQuery, paginate } from '../lib/paginate.ts';
import { msg, parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import { requireUser } from './auth.ts';
import { isStaff, type PubApp } from './context.ts';
import type { Comment } from './model.ts';
import {
  AltGuestCommentSchema,
  AltModerationQuerySchema,
  CommentSchema,
  GuestCommentSchema,
  ModerationQuerySchema,
} from './schemas.ts';
import { comment, commentStatus } from './serialize.ts';

/** The guest's name and e-mail: `author_name`/`author_email`, or alt `name`/`email`. */
function parseGuest(body: Record<string, unknown>, alt: boolean) {
  if (alt) return parse(AltGuestCommentSchema, body);
  const p = parse(GuestCommentSchema, body);
  return p.ok
    ? { ok: true as const, data: { name: p.data.author_name, email: p.data.author_email } }
    : p;
}

const oldestFirst = (a: Comment, b: Comment) =>
  a.createdAt.localeCompare(b.createdAt) || a.id - b.id;

/** Comment threads, guest moderation and approval. */
export function commentRoutes(api: PubApp, _state: MockState): void {
  api.get('/posts/:slug/comments', (c) => {
    const site = c.get('site');
    const post = site.posts.find((p) => p.slug === c.req.param('slug') && p.status === 'published');
    if (!post) return notFound(c, 'Post not found.');
    const page = parse(pageQuery(20, 50), c.req.query());
    if (!page.ok) return invalid(c, page.errors);
    const all = site.comments.filter((x) => x.postId === post.id);
    const top = all.filter((x) => x.parentId === null && x.status === 'approved').sort(oldestFirst);
    const alt = dialectOf(c) === 'alt';
    return c.json(paginate(top, page.data, c.req.url, (x) => comment(all, x, alt)));
  });

  api.post('/posts/:slug/comments', async (c) => {
    const site = c.get('site');
    const post = site.posts.find((p) => p.slug === c.req.param('slug') && p.status === 'published');
    if (!post) return notFound(c, 'Post not found.');
    const user = c.get('user');
    const body = await readBody(c);
    const alt = dialectOf(c) === 'alt';
    const input = parse(CommentSchema, body);
    const guest = user ? null : parseGuest(body, alt);
    const errors = {
      ...(input.ok ? {} : input.errors),
      ...(guest && !guest.ok ? guest.errors : {}),
    };
    const parentId = input.ok ? input.data.parent_id : undefined;
    const parent =
      parentId === undefined
        ? undefined
        : site.comments.find(
            (x) => x.id === parentId && x.postId === post.id && x.status === 'approved',
          );
    if (parentId !== undefined && !parent) errors.parent_id = [msg.selected('parent_id')];
    if (!input.ok || (guest && !guest.ok) || Object.keys(errors).length) return invalid(c, errors);
    const created: Comment = {
      id: site.nextId.comment++,
      postId: post.id,
      parentId: parent?.id ?? null,
      content: input.data.content,
      authorName: user?.name ?? (guest?.ok ? guest.data.name : ''),
      authorEmail: user?.email ?? (guest?.ok ? guest.data.email : ''),
      userId: user?.id ?? null,
      status: user ? 'approved' : 'pending',
      createdAt: isoTime(new Date()),
    };
    site.comments.push(created);
    return c.json(
      {
        data: {
          id: created.id,
          content: created.content,
          status: commentStatus(created.status, alt),
        },
        message: user ? 'Comment published.' : 'Your comment is awaiting moderation.',
      },
      201,
    );
  });

  api.get('/comments', (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    if (!isStaff(user)) return forbidden(c);
    const alt = dialectOf(c) === 'alt';
    const query = parse(alt ? AltModerationQuerySchema : ModerationQuerySchema, c.req.query());
    const page = parse(pageQuery(20, 50), c.req.query());
    if (!query.ok || !page.ok) {
      return invalid(c, { ...(query.ok ? {} : query.errors), ...(page.ok ? {} : page.errors) });
    }
    const site = c.get('site');
    const status = query.data.status === 'approved' ? 'approved' : 'pending';
    const list = site.comments.filter((x) => x.status === status).sort(oldestFirst);
    return c.json(
      paginate(list, page.data, c.req.url, (x) => {
        const post = site.posts.find((p) => p.id === x.postId);
        return {
          ...comment(site.comments, x, alt),
          author_email: x.authorEmail,
          post: post ? { id: post.id, slug: post.slug, title: post.title } : null,
        };
      }),
    );
  });

  api.post('/comments/:id/approve', (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    const site = c.get('site');
    const id = c.req.param('id');
    const target = /^\d+$/.test(id) ? site.comments.find((x) => x.id === Number(id)) : undefined;
    if (!target) return notFound(c, 'Comment not found.');
    if (!isStaff(user)) return forbidden(c);
    target.status = 'approved';
    return c.json({ data: { id: target.id, status: target.status } });
  });
}
