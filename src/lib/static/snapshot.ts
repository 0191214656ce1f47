import { readFileSync, statSync } from 'node:fs';
import { memo } from '../memo.ts';
import type {
  Category,
  Comment,
  Edition,
  Plan,
  Post,
  PostSummary,
  Stream,
  Tag,
} from '../publishing/schema.ts';
import type { PostListParams, PublishingClient } from '../publishing/client.ts';
import { NotFoundError } from '../upstream/errors.ts';
import type { PageParams, Paged } from '../upstream/parse.ts';

/**
 * Everything a tenant's public pages show, fetched once by `npm run build:static` through the real
 * clients (lists at 50 a page, a detail only where the list lacks it). The static build renders the
 * same pages with a client that answers from here, so rendering makes no upstream call.
 */
export interface Snapshot {
  tenant: string;
  /** ISO time the newest answer in it was fetched. */
  fetchedAt: string;
  /** Published posts with content, newest first (the API's order). */
  posts: Post[];
  categories: Category[];
  tags: Tag[];
  plans: Plan[];
  /** As an anonymous visitor sees them: subscriber-only editions carry no pages. */
  editions: Edition[];
  streams: Stream[];
  /** Approved threads by post slug. */
  comments: Record<string, Comment[]>;
}

/** The last version read (one snapshot file per build). */
const read = memo(
  (_version: string, path: string) => JSON.parse(readFileSync(path, 'utf8')) as Snapshot,
  { max: 1 },
);

/**
 * Reads a snapshot file, again only when it was replaced: while the build still fetches, it renders
 * post pages from what has arrived so far (to learn their pictures early), the file growing as it goes.
 */
export function loadSnapshot(path: string): Snapshot {
  return read(`${statSync(path).mtimeMs}\0${path}`, path);
}

/** One page of `items`, shaped like the client's answers. */
export function pageOf<T>(items: readonly T[], params: PageParams = {}): Paged<T> {
  const perPage = Math.max(1, params.perPage ?? 15);
  const current = Math.max(1, params.page ?? 1);
  const start = (current - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    page: {
      current,
      last: Math.max(1, Math.ceil(items.length / perPage)),
      perPage,
      total: items.length,
    },
  };
}

const summary = (post: Post): PostSummary => post;

function missing(operation: string, what: string): NotFoundError {
  return new NotFoundError(`[static] ${operation}: ${what} is not in the snapshot`, {
    service: 'publishing',
    operation,
    status: 404,
  });
}

/** A value as the client's promise; a throw becomes a rejection, as with a real call. */
const answer = <T>(compute: () => T): Promise<T> => Promise.resolve().then(compute);

function refuse(operation: string): never {
  throw new Error(`[static] ${operation} needs a live server; a static build never calls it`);
}

function matchesTag(post: Post, nameOrSlug: string): boolean {
  const needle = nameOrSlug.toLowerCase();
  return post.tags.some((tag) => tag.slug === needle || tag.name.toLowerCase() === needle);
}

function matchesSearch(post: Post, query: string): boolean {
  const needle = query.toLowerCase();
  return [post.title, post.excerpt, post.content].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

/** Posts a list call would return, in the API's order (newest first). */
function filterPosts(posts: readonly Post[], params: PostListParams): Post[] {
  return posts.filter(
    (post) =>
      (params.category === undefined || post.category?.slug === params.category) &&
      (params.tag === undefined || matchesTag(post, params.tag)) &&
      (params.featured === undefined || Boolean(post.is_featured) === params.featured) &&
      (params.search === undefined || matchesSearch(post, params.search)),
  );
}

/** The publishing client's public reads, answered from a snapshot; personal calls and writes refuse. */
export function snapshotClient(snapshot: Snapshot): PublishingClient {
  const find = <T extends { slug: string }>(items: readonly T[], slug: string, op: string): T => {
    const found = items.find((item) => item.slug === slug);
    if (!found) throw missing(op, slug);
    return found;
  };
  const client: PublishingClient = {
    tenantId: snapshot.tenant,
    // Anonymous only: a static copy never acts for a user.
    withToken: () => client,
    login: () => answer(() => refuse('auth.login')),
    register: () => answer(() => refuse('auth.register')),
    me: () => answer(() => refuse('auth.me')),
    logout: () => answer(() => refuse('auth.logout')),
    listPosts: (params = {}) =>
      answer(() => {
        const paged = pageOf(filterPosts(snapshot.posts, params), params);
        return { ...paged, items: paged.items.map(summary) };
      }),
    getPost: (slug) => answer(() => find(snapshot.posts, slug, 'posts.get')),
    // Every post is in the snapshot: none ever needs a stand-in.
    knownPost: () => undefined,
    listedPosts: () => [],
    listCategories: () => answer(() => snapshot.categories),
    getCategory: (slug, params = {}) =>
      answer(() => {
        const category = find(snapshot.categories, slug, 'categories.get');
        return { category, posts: pageOf(filterPosts(snapshot.posts, { category: slug }), params) };
      }),
    listTags: () => answer(() => snapshot.tags),
    getTag: (slug, params = {}) =>
      answer(() => {
        const tag = find(snapshot.tags, slug, 'tags.get');
        return { tag, posts: pageOf(filterPosts(snapshot.posts, { tag: tag.slug }), params) };
      }),
    listPlans: () => answer(() => snapshot.plans),
    getPlan: (slug) => answer(() => find(snapshot.plans, slug, 'plans.get')),
    listEditions: (params = {}) => answer(() => pageOf(snapshot.editions, params)),
    getEdition: (slug) => answer(() => find(snapshot.editions, slug, 'epaper.get')),
    listStreams: (params = {}) => answer(() => pageOf(snapshot.streams, params)),
    getStream: (slug) => answer(() => find(snapshot.streams, slug, 'streams.get')),
    // The whole approved thread on one page: a static host cannot serve `?comments=2`.
    listComments: (postSlug) =>
      answer(() => {
        const thread = snapshot.comments[postSlug] ?? [];
        return pageOf(thread, { page: 1, perPage: Math.max(1, thread.length) });
      }),
    createComment: () => answer(() => refuse('comments.create')),
  };
  return client;
}
