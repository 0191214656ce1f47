import { dialectOf } from '../lib/dialect.ts';
import { isoTime } from '../lib/dates.ts';
import { forbidden, invalid, notFound, readBody } from '../lib/http.ts';
import { paginate, pageQuery } from '../lib/paginate.ts';
import { addError, msg, parse, type FieldErrors } from '../lib/validation.ts';
import { slugify } from '../seed/text.ts';
import type { MockState } from '../state.ts';
import { requireUser } from './auth.ts';
import { isStaff, type PubApp, type PubContext } from './context.ts';
import type { Post, Site } from './model.ts';
import { findTag, matchesSearch, publishedPosts, uniqueSlug } from './queries.ts';
import { CreatePostSchema, PostFilterSchema, UpdatePostSchema } from './schemas.ts';
import { postFull, postItem } from './serialize.ts';

const findById = (site: Site, id: string): Post | undefined =>
  /^\d+$/.test(id) ? site.posts.find((p) => p.id === Number(id)) : undefined;

function checkCategory(site: Site, id: number | undefined, errors: FieldErrors): void {
  if (id !== undefined && !site.categories.some((c) => c.id === id)) {
    addError(errors, 'category_id', msg.selected('category_id'));
  }
}

export function postRoutes(api: PubApp, state: MockState): void {
  const out = (c: PubContext) => ({
    origin: state.origins.publishing,
    site: c.get('site'),
    alt: dialectOf(c) === 'alt',
    media: state.media,
  });

  api.get('/posts', (c) => {
    const query = c.req.query();
    const page = parse(pageQuery(10, 50), query);
    const filters = parse(PostFilterSchema, query);
    if (!page.ok || !filters.ok) {
      return invalid(c, { ...(page.ok ? {} : page.errors), ...(filters.ok ? {} : filters.errors) });
    }
    const site = c.get('site');
    const f = filters.data;
    const cat =
      f.category === undefined ? undefined : site.categories.find((x) => x.slug === f.category);
    const tag = f.tag === undefined ? undefined : findTag(site, f.tag);
    const list = publishedPosts(site).filter(
      (p) =>
        (f.category === undefined || (cat !== undefined && p.categoryId === cat.id)) &&
        (f.tag === undefined || (tag !== undefined && p.tagIds.includes(tag.id))) &&
        (f.featured === undefined || p.isFeatured === f.featured) &&
        (f.search === undefined || matchesSearch(p, f.search)),
    );
    return c.json(paginate(list, page.data, c.req.url, (p) => postItem(out(c), p)));
  });

  api.get('/posts/:slug', (c) => {
    const post = c.get('site').posts.find((p) => p.slug === c.req.param('slug'));
    if (!post || post.status !== 'published') return notFound(c, 'Post not found.');
    return c.json({ data: postFull(out(c), post) });
  });

  api.post('/posts', async (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    if (!isStaff(user)) return forbidden(c);
    const input = parse(CreatePostSchema, await readBody(c));
    const site = c.get('site');
    const errors = input.ok ? {} : input.errors;
    if (input.ok) checkCategory(site, input.data.category_id, errors);
    if (!input.ok || Object.keys(errors).length) return invalid(c, errors);
    const d = input.data;
    const now = isoTime(new Date());
    const status = d.status ?? 'draft';
    const post: Post = {
      id: site.nextId.post++,
      title: d.title,
      slug: uniqueSlug(site, slugify(d.title)),
      excerpt: d.excerpt ?? '',
      content: d.content ?? '',
      status,
      publishedAt: status === 'published' ? now : null,
      updatedAt: now,
      authorId: user.id,
      categoryId: d.category_id ?? null,
      tagIds: [],
      isFeatured: d.is_featured ?? false,
      hasCover: false,
    };
    site.posts.push(post);
    return c.json(
      { data: { id: post.id, title: post.title, slug: post.slug, status: post.status } },
      201,
    );
  });

  api.patch('/posts/:id', async (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    const site = c.get('site');
    const post = findById(site, c.req.param('id'));
    if (!post) return notFound(c, 'Post not found.');
    if (!isStaff(user) && post.authorId !== user.id) return forbidden(c);
    const input = parse(UpdatePostSchema, await readBody(c));
    const errors = input.ok ? {} : input.errors;
    if (input.ok) checkCategory(site, input.data.category_id, errors);
    if (!input.ok || Object.keys(errors).length) return invalid(c, errors);
    const d = input.data;
    if (d.title !== undefined) post.title = d.title;
    if (d.content !== undefined) post.content = d.content;
    if (d.excerpt !== undefined) post.excerpt = d.excerpt;
    if (d.category_id !== undefined) post.categoryId = d.category_id;
    if (d.is_featured !== undefined) post.isFeatured = d.is_featured;
    if (d.status !== undefined) {
      if (d.status === 'published' && post.publishedAt === null)
        post.publishedAt = isoTime(new Date());
      post.status = d.status;
    }
    post.updatedAt = isoTime(new Date());
    return c.json({ data: { id: post.id, title: post.title, status: post.status } });
  });

  api.delete('/posts/:id', (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    const site = c.get('site');
    const post = findById(site, c.req.param('id'));
    if (!post) return notFound(c, 'Post not found.');
    if (!user.roles.includes('admin')) return forbidden(c);
    site.posts = site.posts.filter((p) => p !== post);
    site.comments = site.comments.filter((x) => x.postId !== post.id);
    return c.json({ message: 'Post deleted.' });
  });
}
