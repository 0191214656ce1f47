import { laravelTime } from '../lib/dates.ts';
import { mediaExtension, mediaSize, type MediaMode } from '../lib/media-mode.ts';
import { ORIGIN } from '../seed/text.ts';
import { API_BASE } from './context.ts';
import { altContent, altEdition, altPlan, altPostItem, altStream } from './serialize-alt.ts';
import type { Category, Comment, Edition, Plan, Post, Site, Stream, Tag } from './model.ts';

/** JSON shapes of the publishing service (docs/api-assumptions.md). */
/** `alt`: the alt dialect's shapes (serialize-alt.ts). */
export type Out = { origin: string; site: Site; alt?: boolean; media?: MediaMode };

/** A media URL; `name` without extension (`.svg`, or `.jpg` in photo mode). */
export const media = (o: Out, name: string) =>
  `${o.origin}/media/${o.site.slug}/${name}.${mediaExtension(o.media ?? 'svg')}`;
/** Pixel size of a kind of picture in the mode `o` serves. */
export const sizeOf = (o: Out, kind: Parameters<typeof mediaSize>[1]) =>
  mediaSize(o.media ?? 'svg', kind);
/** Figures inside post HTML point at photos in photo mode (same 3:2 shape as the drawings). */
const figures = (o: Out, html: string) =>
  o.media === 'photos' ? html.replace(/(\/figures\/[^"]+)\.svg"/g, '$1.jpg"') : html;

export const tagRef = (t: Tag) => ({ id: t.id, name: t.name, slug: t.slug });

/** A post's author and category, embedded alike in both dialects. */
export function postRelations(o: Out, p: Post) {
  const author = o.site.users.find((u) => u.id === p.authorId);
  const cat = o.site.categories.find((c) => c.id === p.categoryId);
  return {
    author: { id: p.authorId, name: author?.name ?? 'Unknown' },
    category: cat ? { id: cat.id, name: cat.name, slug: cat.slug } : null,
  };
}

export function postItem(o: Out, p: Post) {
  if (o.alt) return altPostItem(o, p);
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    status: p.status,
    published_at: p.publishedAt,
    updated_at: p.updatedAt,
    is_featured: p.isFeatured,
    cover_image_url: p.hasCover ? media(o, `covers/${p.slug}`) : null,
    cover_image_width: p.hasCover ? sizeOf(o, 'cover').width : null,
    cover_image_height: p.hasCover ? sizeOf(o, 'cover').height : null,
    ...postRelations(o, p),
    tags: o.site.tags.filter((t) => p.tagIds.includes(t.id)).map(tagRef),
  };
}

export const postFull = (o: Out, p: Post) => ({
  ...postItem(o, p),
  content: figures(o, o.alt ? altContent(o, p.content) : p.content.replaceAll(ORIGIN, o.origin)),
});

export const category = (c: Category, postsCount: number) => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  posts_count: postsCount,
});

export const tag = (o: Out, t: Tag) => ({
  ...tagRef(t),
  url: `${o.origin}${API_BASE}/tags/${t.slug}`,
});

export const plan = (o: Out, p: Plan) =>
  o.alt ? altPlan(o, p) : planFields(o, p, p.interval, p.features);

/** A plan as both dialects send it; each spells `interval` and `features` its own way. */
export const planFields = <F>(o: Out, p: Plan, interval: string, features: F) => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  description: p.description,
  price: p.price,
  currency: p.currency,
  interval,
  features,
  subscribe_url: `${o.origin}/subscribe/${o.site.slug}/${p.slug}`,
});

/** `pages` only for the detail view; locked editions get `pages: []`. */
export function edition(o: Out, e: Edition, access: boolean, withPages: boolean) {
  const locked = !e.isFree && !access;
  if (o.alt) return altEdition(o, e, locked, withPages);
  const base = {
    ...editionFields(o, e, locked),
    cover_image_url: media(o, `epaper/${e.slug}/cover`),
    published_at: e.publishedAt,
  };
  return withPages ? { ...base, pages: editionPages(o, e, locked, sizeOf(o, 'page')) } : base;
}

/** What both dialects send of an edition before its cover and date. */
export const editionFields = (o: Out, e: Edition, locked: boolean) => ({
  id: e.id,
  title: e.title,
  slug: e.slug,
  page_count: e.pageCount,
  is_free: e.isFree,
  requires_subscription: locked,
  reader_url: `${o.origin}/reader/${o.site.slug}/${e.slug}`,
});

/** An edition's pages (none when locked), each with `size` where the dialect sends one. */
export const editionPages = (o: Out, e: Edition, locked: boolean, size = {}) =>
  locked
    ? []
    : Array.from({ length: e.pageCount }, (_, i) => ({
        page_number: i + 1,
        image_url: media(o, `epaper/${e.slug}/pages/${i + 1}`),
        ...size,
      }));

export function stream(o: Out, s: Stream) {
  if (o.alt) return altStream(o, s);
  const player = `${o.origin}/player/${o.site.slug}/${s.slug}`;
  return {
    ...streamFields(s),
    provider: 'masthead-player',
    watch_url: player,
    stream_url: `${player}?embed=1`,
    embed_code: `<iframe src="${player}?embed=1" width="1280" height="720" title="${s.title.replaceAll('"', '&quot;')}" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
    thumbnail_url: media(o, `streams/${s.slug}`),
    scheduled_at: s.scheduledAt,
    started_at: s.startedAt,
    ended_at: s.endedAt,
  };
}

/** What both dialects send of a stream before its provider and addresses. */
export const streamFields = (s: Stream) => ({
  id: s.id,
  title: s.title,
  slug: s.slug,
  description: s.description,
  status: s.status,
  is_live: s.status === 'live',
});

type CommentOut = {
  id: number;
  content: string;
  author_name: string;
  created_at: string;
  status: string;
  parent_id: number | null;
  replies: CommentOut[];
};

/** A guest comment's state: `pending`, or the alt dialect's `awaiting_moderation`. */
export const commentStatus = (status: Comment['status'], alt = false) =>
  alt && status === 'pending' ? 'awaiting_moderation' : status;

/** A comment with its approved replies, nested to any depth, oldest first. */
export function comment(all: readonly Comment[], c: Comment, alt = false): CommentOut {
  return {
    id: c.id,
    content: c.content,
    author_name: c.authorName,
    created_at: alt ? laravelTime(c.createdAt) : c.createdAt,
    status: commentStatus(c.status, alt),
    parent_id: c.parentId,
    replies: all
      .filter((r) => r.parentId === c.id && r.status === 'approved')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)
      .map((r) => comment(all, r, alt)),
  };
}
