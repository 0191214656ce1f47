import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { errorMessage } from '../content/records.ts';
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
  /** Only while the build still fetches: every post the lists name, so list totals are whole. */
  listed?: PostSummary[];
  /** Only while the build still fetches: where each read and its answer's digest are noted. */
  readsLog?: string;
}

const read = memo(
  (_version: string, path: string) => JSON.parse(readFileSync(path, 'utf8')) as Snapshot,
  { max: 1 },
);

/** Reads a snapshot file, again only when it was replaced (it grows while the build fetches). */
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

/** A value as the client's promise; a throw becomes a rejection, as with a real call. */
const answer = <T>(compute: () => T): Promise<T> => Promise.resolve().then(compute);

function refuse(operation: string): never {
  throw new Error(`[static] ${operation} needs a live server; a static build never calls it`);
}

function matchesTag(post: PostSummary, nameOrSlug: string): boolean {
  const needle = nameOrSlug.toLowerCase();
  return post.tags.some((tag) => tag.slug === needle || tag.name.toLowerCase() === needle);
}

function matchesSearch(post: PostSummary, query: string): boolean {
  const needle = query.toLowerCase();
  return [post.title, post.excerpt, post.content ?? ''].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

/** Posts a list call would return, in the API's order (newest first). */
function filterPosts(posts: readonly PostSummary[], params: PostListParams): PostSummary[] {
  return posts.filter(
    (post) =>
      (params.category === undefined || post.category?.slug === params.category) &&
      (params.tag === undefined || matchesTag(post, params.tag)) &&
      (params.featured === undefined || Boolean(post.is_featured) === params.featured) &&
      (params.search === undefined || matchesSearch(post, params.search)),
  );
}

/** The client's reads of a snapshot (`listPosts`, `getPost`, …): the calls a reads log notes. */
const READ = /^(?:list|get)[A-Z]/;

const readSchema = z.object({
  op: z.string().regex(READ),
  args: z.array(z.unknown()),
  /** Of the answer, or of the failure (a slug not in the snapshot). */
  digest: z.string(),
});
export type SnapshotRead = z.infer<typeof readSchema>;

/** An answer of the client as a digest (of its value, or of why it failed). */
const digestOf = (answer: Promise<unknown>): Promise<string> =>
  answer
    .then(
      (value) => `ok\0${JSON.stringify(value)}`,
      (error: unknown) => `failed\0${errorMessage(error)}`,
    )
    .then((text) => createHash('sha256').update(text).digest('base64url'));

/** The reads a reads log holds (one JSON line each). */
export function parseReads(text: string): SnapshotRead[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => readSchema.parse(JSON.parse(line)));
}

/** Whether `snapshot` answers every one of `reads` as the snapshot they were noted from did. */
export async function sameAnswers(
  snapshot: Snapshot,
  reads: readonly SnapshotRead[],
): Promise<boolean> {
  const client = snapshotClient(snapshot);
  const digests = await Promise.all(
    reads.map(({ op, args }) => {
      const method: unknown = Reflect.get(client, op);
      const answer: unknown = typeof method === 'function' && Reflect.apply(method, client, args);
      return digestOf(Promise.resolve(answer));
    }),
  );
  return digests.every((digest, index) => digest === reads[index]?.digest);
}

/** `client`, noting each read and its answer's digest in `file`. */
function noting(client: PublishingClient, file: string): PublishingClient {
  const noted: PublishingClient = new Proxy(client, {
    get(target, name, receiver) {
      if (name === 'withToken') return () => noted;
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || !READ.test(name) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const answer: unknown = Reflect.apply(value, target, args);
        void digestOf(Promise.resolve(answer)).then((digest) =>
          appendFileSync(file, `${JSON.stringify({ op: name, args, digest })}\n`),
        );
        return answer;
      };
    },
  });
  return noted;
}

/** Public reads answered from a snapshot (noted in its `readsLog`); personal calls and writes refuse. */
export function snapshotClient(snapshot: Snapshot): PublishingClient {
  const find = <T extends { slug: string }>(items: readonly T[], slug: string, op: string) => {
    const found = items.find((item) => item.slug === slug);
    if (found) return found;
    throw new NotFoundError(`[static] ${op}: ${slug} is not in the snapshot`, {
      service: 'publishing',
      operation: op,
      status: 404,
    });
  };
  const details = new Map(snapshot.posts.map((post) => [post.slug, post]));
  const listed = snapshot.listed?.map((post) => details.get(post.slug) ?? post) ?? snapshot.posts;
  const client: PublishingClient = {
    tenantId: snapshot.tenant,
    // Anonymous only: a static copy never acts for a user.
    withToken: () => client,
    login: () => answer(() => refuse('auth.login')),
    register: () => answer(() => refuse('auth.register')),
    me: () => answer(() => refuse('auth.me')),
    logout: () => answer(() => refuse('auth.logout')),
    listPosts: (params = {}) => answer(() => pageOf(filterPosts(listed, params), params)),
    getPost: (slug) => answer(() => find(snapshot.posts, slug, 'posts.get')),
    // Every post is in the snapshot: none ever needs a stand-in.
    knownPost: () => undefined,
    listedPosts: () => [],
    anyListed: () => false,
    listCategories: () => answer(() => snapshot.categories),
    getCategory: (slug, params = {}) =>
      answer(() => {
        const category = find(snapshot.categories, slug, 'categories.get');
        return { category, posts: pageOf(filterPosts(listed, { category: slug }), params) };
      }),
    listTags: () => answer(() => snapshot.tags),
    getTag: (slug, params = {}) =>
      answer(() => {
        const tag = find(snapshot.tags, slug, 'tags.get');
        return { tag, posts: pageOf(filterPosts(listed, { tag: tag.slug }), params) };
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
  return snapshot.readsLog ? noting(client, snapshot.readsLog) : client;
}
