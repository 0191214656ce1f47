import { DEFAULT_IFRAME_HOSTS, sanitizePostHtml } from '../content/sanitize.ts';
import { budgetKeys } from '../upstream/budget.ts';
import { clientCore, declaredCore } from '../upstream/client-core.ts';
import type { ClientCore, CoreOptions, ReadOptions } from '../upstream/client-core.ts';
import { paged } from '../upstream/parse.ts';
import type { PageParams, Paged } from '../upstream/parse.ts';
import { PUBLISHING_OPERATIONS } from './operations.ts';
import { knownPosts } from './known-posts.ts';
import { NotFoundError, UnauthenticatedError } from '../upstream/errors.ts';
import { apiHash, hashToken } from '../upstream/cache.ts';
import { memo } from '../memo.ts';
import { TTL } from '../upstream/ttl.ts';
import type { z } from 'zod';
import type {
  AuthResult,
  Category,
  Comment,
  CommentCreated,
  CommentInput,
  Edition,
  Plan,
  Post,
  PostSummary,
  RegisterInput,
  Stream,
  Tag,
  User,
} from './schema.ts';

export interface PublishingClientOptions extends CoreOptions {
  /** Tenant short name, sent as `X-Tenant` on every call. */
  tenantId: string;
  /** A signed-in user's token; only personal reads and writes send it. */
  token?: string | undefined;
  /**
   * The tenant's server read token (`publishingReadToken` in SECRETS_FILE, or `publishing.tokenEnv`).
   * Public reads (the e-paper list and an anonymous visitor's edition included) send it so they count
   * against its 240/min instead of the 60/min per-IP budget shared by every tenant. What it reads of
   * the e-paper is cut to what an anonymous reader may see (`anonymousEdition`), so it cannot unlock
   * paid pages; never sent on a signed-in reader's own reads.
   */
  serviceToken?: string | undefined;
  /** Extra iframe hosts kept in post content and stream embeds (e.g. the site's player host). */
  iframeHosts?: readonly string[] | undefined;
}

export interface PostListParams extends PageParams {
  /** Category slug. */
  category?: string | undefined;
  /** Tag name (a slug also matches on the mock). */
  tag?: string | undefined;
  featured?: boolean | undefined;
  search?: string | undefined;
}

export interface CategoryWithPosts {
  category: Category;
  posts: Paged<PostSummary>;
}

/**
 * Server read tokens an API answered 401 (by API and token hash), not sent to it again for five
 * minutes: public reads go anonymously meanwhile, without a refused call before each.
 */
const refusedReadTokens = memo((_key: string) => true, { max: 100, ttlMs: 5 * 60_000 });

/** The core a publishing client (and the test harness's extra operations) calls through. */
export function publishingCore(options: PublishingClientOptions): ClientCore {
  const { baseUrl, tenantId, token } = options;
  return clientCore({
    ...options,
    service: 'publishing',
    tenant: tenantId,
    access: {
      withToken: async ({ access, method }, send) => {
        if (access === 'personal') return send(token);
        const readToken = method === 'GET' ? options.serviceToken : undefined;
        const refusedKey = readToken && `${apiHash(baseUrl)}|${hashToken(readToken)}`;
        if (!refusedKey || refusedReadTokens.peek(refusedKey)) return send(undefined);
        try {
          return await send(readToken);
        } catch (error) {
          // Revoked or rotated in the API: a public read needs no token, so every page would fail
          // for want of one it does not need. Anonymous (the per-IP budget) until it is replaced.
          if (!(error instanceof UnauthenticatedError)) throw error;
          refusedReadTokens(refusedKey);
          return send(undefined);
        }
      },
      budgetKey: (sent) =>
        sent === undefined
          ? budgetKeys.publishingPublic(baseUrl)
          : budgetKeys.publishingToken(baseUrl, tenantId, sent),
      cacheIdentity: (access) => (access === 'personal' ? token : undefined),
    },
    headers: { 'X-Tenant': tenantId },
    operations: PUBLISHING_OPERATIONS,
  });
}

/** What the reads of one client share: its core and how it cleans what the API sends. */
function readingKit(options: PublishingClientOptions) {
  const core = publishingCore(options);
  const iframeHosts = [...DEFAULT_IFRAME_HOSTS, ...(options.iframeHosts ?? [])];
  // Relative URLs in post HTML point at the CMS's own site, the origin of this API.
  const sanitize = (html: string): string =>
    sanitizePostHtml(html, { iframeHosts, baseUrl: options.baseUrl });

  // Read with the tenant's token, an edition is cut to the anonymous view before it is cached: a
  // paid edition (not `is_free`) is locked and has no pages, whatever the token's account may read.
  const anonymousEdition = (edition: Edition): Edition =>
    options.serviceToken && (edition.requires_subscription || !edition.is_free)
      ? { ...edition, requires_subscription: true, pages: [] }
      : edition;
  // A signed-in reader's edition is their own (cached per user); anyone else's is the shared one.
  const editionAccess: 'personal' | 'public' = options.token ? 'personal' : 'public';

  // Many APIs send each listed post's whole body; no list shows it, so it is neither sanitized nor
  // cached (50 bodies of a section-block read would otherwise sit in every tenant's cache).
  const cleanSummary = ({ content: _body, ...post }: PostSummary): PostSummary => post;
  /** Every list read (cached or not) records its entries: a post page's stand-in (./known-posts.ts). */
  const known = knownPosts(core.upstream, options.tenantId);
  const remembered = <T>(read: Promise<T>, posts: (value: T) => readonly PostSummary[]) =>
    read.then((value) => {
      known.remember(posts(value));
      return value;
    });

  const cleanStream = (stream: Stream): Stream =>
    stream.embed_code ? { ...stream, embed_code: sanitize(stream.embed_code) } : stream;

  return {
    ...declaredCore(core, PUBLISHING_OPERATIONS),
    sanitize,
    anonymousEdition,
    editionAccess,
    cleanSummary,
    cleanStream,
    remembered,
    known,
  };
}

type Kit = ReturnType<typeof readingKit>;
type Detail<K extends keyof typeof PUBLISHING_OPERATIONS> = z.output<
  (typeof PUBLISHING_OPERATIONS)[K]['schema']
>;

/** Sign-in, registration, the signed-in user and sign-out. */
function accountOperations({ read, call }: Kit) {
  return {
    /** Wrong credentials → `ValidationError` with `fields.email`. */
    login: (email: string, password: string): Promise<AuthResult> =>
      call('auth.login', { body: { email, password } }),
    /** A subscriber. */
    register: (input: RegisterInput): Promise<AuthResult> => call('auth.register', { body: input }),
    /** Cached per user. */
    me: (readOptions?: ReadOptions): Promise<User> =>
      read('auth.me', { access: 'personal' }, readOptions),
    /** Revokes the token. */
    async logout(): Promise<void> {
      await call('auth.logout', { access: 'personal' });
    },
  };
}

/** Posts: public, cached once for every visitor. */
function postOperations({ read, sanitize, cleanSummary, remembered, known }: Kit) {
  return {
    listPosts(params: PostListParams = {}, readOptions?: ReadOptions): Promise<Paged<PostSummary>> {
      const { query, map } = paged(params, cleanSummary);
      const { category, tag, search } = params;
      const featured = params.featured === undefined ? undefined : params.featured ? '1' : '0';
      const spec = { query: { ...query, category, tag, featured, search }, map };
      const list = read('posts.list', { ...spec, ...(search && { ttl: TTL.search }) }, readOptions);
      return remembered(list, (page) => page.items);
    },
    /** One published post; `content` is sanitized HTML. Unknown or draft → `NotFoundError`. */
    getPost: (slug: string, readOptions?: ReadOptions): Promise<Post> =>
      read(
        'posts.get',
        { params: { slug }, map: (post) => ({ ...post, content: sanitize(post.content) }) },
        readOptions,
      ).catch((error: unknown) => {
        // Gone: its old list entry must not stand in for it.
        if (error instanceof NotFoundError) known.forget(slug);
        throw error;
      }),
    /** The post as a list last showed it (no `content`), if one did: a stand-in while it cannot be read. */
    knownPost: known.get,
    /** The posts lists showed in the last `withinMs`, as they showed them (no upstream call). */
    listedPosts: known.listed,
    anyListed: known.any,
  };
}

/** Categories, tags and plans. */
function sectionOperations({ read, cleanSummary, remembered }: Kit) {
  /** A category or tag page (one shape): the term as `term` picks it, and a page of its posts. */
  const archive = <K extends 'categories.get' | 'tags.get', T>(
    operation: K,
    slug: string,
    params: PageParams,
    readOptions: ReadOptions | undefined,
    term: (detail: Detail<K>) => T,
  ): Promise<T & { posts: Paged<PostSummary> }> => {
    const { query, map: page } = paged(params, cleanSummary);
    const map = (detail: Detail<K>) => ({
      ...term(detail),
      posts: page({ items: detail.posts.items, meta: detail.meta ?? detail.posts.meta }),
    });
    const detail = read(operation, { params: { slug }, query, map }, readOptions);
    return remembered(detail, ({ posts }) => posts.items);
  };
  return {
    listCategories: (readOptions?: ReadOptions): Promise<Category[]> =>
      read('categories.list', { map: (list) => list.items }, readOptions),
    getCategory: (
      slug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<CategoryWithPosts> =>
      archive('categories.get', slug, params, readOptions, ({ category }) => ({ category })),
    listTags: (readOptions?: ReadOptions): Promise<Tag[]> =>
      read('tags.list', { map: (list) => list.items }, readOptions),
    getTag: (slug: string, params: PageParams = {}, readOptions?: ReadOptions) =>
      archive('tags.get', slug, params, readOptions, ({ tag }) => ({ tag })),
    listPlans: (readOptions?: ReadOptions): Promise<Plan[]> =>
      read('plans.list', { map: (list) => list.items }, readOptions),
    getPlan: (slug: string, readOptions?: ReadOptions): Promise<Plan> =>
      read('plans.get', { params: { slug } }, readOptions),
  };
}

/** E-paper, streams and comments. */
function editionStreamCommentOperations({
  read,
  call,
  anonymousEdition,
  editionAccess,
  cleanStream,
}: Kit) {
  return {
    // E-paper: the list is the same for every reader (its badges come from `is_free`): one shared
    // copy, read with the tenant's token. An edition is the reader's own when they are signed in.
    listEditions: (params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Edition>> =>
      read('epaper.list', paged(params, anonymousEdition), readOptions),
    /** A subscriber-only edition read anonymously has `requires_subscription: true`, `pages: []`. */
    getEdition: (slug: string, readOptions?: ReadOptions): Promise<Edition> =>
      read(
        'epaper.get',
        {
          params: { slug },
          access: editionAccess,
          map: editionAccess === 'public' ? anonymousEdition : undefined,
        },
        readOptions,
      ),
    // Streams: `embed_code` is sanitized (iframes from allowed hosts only).
    listStreams: (params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Stream>> =>
      read('streams.list', paged(params, cleanStream), readOptions),
    getStream: (slug: string, readOptions?: ReadOptions): Promise<Stream> =>
      read('streams.get', { params: { slug }, map: cleanStream }, readOptions),
    /** Approved top-level comments with approved replies. */
    listComments: (
      postSlug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<Paged<Comment>> =>
      read('comments.list', { params: { postSlug }, ...paged<Comment>(params) }, readOptions),
    /** Signed in: published at once. Guest (no token): needs `author_name` + `author_email`, pending. */
    createComment: (postSlug: string, input: CommentInput): Promise<CommentCreated> =>
      call('comments.create', { params: { postSlug }, body: input, access: 'personal' }),
  };
}

/**
 * A publishing client bound to one tenant and (optionally) one user token. Public content is read
 * without the user's token (with the tenant's read token when it has one): one cached copy for
 * every visitor. Personal reads (`me`, a signed-in reader's edition) send the user's token and are
 * cached per user, so a subscriber's edition pages never reach an anonymous visitor.
 */
export function publishingClient(options: PublishingClientOptions) {
  const kit = readingKit(options);
  return {
    tenantId: options.tenantId,
    /** The same client acting for another user (or anonymously with `undefined`). */
    withToken(nextToken: string | undefined) {
      return publishingClient({ ...options, token: nextToken });
    },
    ...accountOperations(kit),
    ...postOperations(kit),
    ...sectionOperations(kit),
    ...editionStreamCommentOperations(kit),
  };
}

export type PublishingClient = ReturnType<typeof publishingClient>;
