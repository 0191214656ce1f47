import { dialectOf } from '../lib/dialect.ts';
import { invalid, notFound } from '../lib/http.ts';
import { pageQuery, paginate } from '../lib/paginate.ts';
import { parse } from '../lib/validation.ts';
import type { MockState } from '../state.ts';
import type { PubApp, PubContext } from './context.ts';
import type { Post } from './model.ts';
import { findTag, publishedPosts } from './queries.ts';
import { category, postItem, tag } from './serialize.ts';

/** Paginated posts nested in `data` with a short meta (category and tag detail views). */
function nested(state: MockState, c: PubContext, posts: Post[], key: string, value: unknown) {
  const page = parse(pageQuery(10, 50), c.req.query());
  if (!page.ok) return invalid(c, page.errors);
  const out = {
    origin: state.origins.publishing,
    site: c.get('site'),
    alt: dialectOf(c) === 'alt',
    media: state.media,
  };
  const p = paginate(posts, page.data, c.req.url, (x) => postItem(out, x));
  const { total, current_page, last_page, per_page } = p.meta;
  return c.json({
    data: { [key]: value, posts: p.data, meta: { total, current_page, last_page, per_page } },
  });
}

export function taxonomyRoutes(api: PubApp, state: MockState): void {
  const out = (c: PubContext) => ({
    origin: state.origins.publishing,
    site: c.get('site'),
    alt: dialectOf(c) === 'alt',
    media: state.media,
  });

  api.get('/categories', (c) => {
    const published = publishedPosts(c.get('site'));
    return c.json({
      data: c
        .get('site')
        .categories.map((x) => category(x, published.filter((p) => p.categoryId === x.id).length)),
    });
  });

  api.get('/categories/:slug', (c) => {
    const site = c.get('site');
    const cat = site.categories.find((x) => x.slug === c.req.param('slug'));
    if (!cat) return notFound(c, 'Category not found.');
    const posts = publishedPosts(site).filter((p) => p.categoryId === cat.id);
    return nested(state, c, posts, 'category', category(cat, posts.length));
  });

  api.get('/tags', (c) => {
    const published = publishedPosts(c.get('site'));
    const used = new Set(published.flatMap((p) => p.tagIds));
    return c.json({
      data: c
        .get('site')
        .tags.filter((t) => used.has(t.id))
        .map((t) => tag(out(c), t)),
    });
  });

  api.get('/tags/:slug', (c) => {
    const site = c.get('site');
    const t = findTag(site, c.req.param('slug'));
    const posts = t ? publishedPosts(site).filter((p) => p.tagIds.includes(t.id)) : [];
    // A tag without published posts is not exposed, like in the list.
    if (!t || posts.length === 0) return notFound(c, 'Tag not found.');
    return nested(state, c, posts, 'tag', tag(out(c), t));
  });
}
