import { DEFAULT_IFRAME_HOSTS, sanitizePostHtml } from '../content/sanitize.ts';
import { budgetKeys } from '../upstream/budget.ts';
import { clientCore } from '../upstream/client-core.ts';
import type { ClientCore, ReadOptions, ServiceAccess } from '../upstream/client-core.ts';
import { pageInfo, pageQuery as pagingQuery, toPaged } from '../upstream/parse.ts';
import type { PageMeta, PageParams, Paged } from '../upstream/parse.ts';
import type { ServiceProfile } from '../upstream/profile.ts';
import type { Upstream } from '../upstream/runtime.ts';
import { PUBLISHING_OPERATIONS } from './operations.ts';
import { forgetPost, knownPost, listedPosts, rememberPosts } from './known-posts.ts';
import { NotFoundError } from '../upstream/errors.ts';
import { TTL } from '../upstream/ttl.ts';
import {
  authResultSchema,
  categoryDetailSchema,
  categoryListSchema,
  commentCreatedSchema,
  commentListSchema,
  editionListSchema,
  meSchema,
  messageSchema,
  planListSchema,
  postListSchema,
  singleEditionSchema,
  singlePlanSchema,
  singlePostSchema,
  singleStreamSchema,
  streamListSchema,
  tagDetailSchema,
  tagListSchema,
} from './schema.ts';
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

export interface PublishingClientOptions {
  /** Tenant short name, sent as `X-Tenant` on every call. */
  tenantId: string;
  /** The `/api/v1` base address. */
  baseUrl: string;
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
  /** Shared budget, cache and metrics (the site's: `siteUpstream()`). */
  upstream: Upstream;
  /** Extra iframe hosts kept in post content and stream embeds (e.g. the site's player host). */
  iframeHosts?: readonly string[] | undefined;
  timeoutMs?: number | undefined;
  /** How this tenant's API spells the operations (`publishing.profile`); none: the default dialect. */
  profile?: ServiceProfile | undefined;
}

export type { PageParams };

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

interface TagWithPosts {
  tag: Tag;
  posts: Paged<PostSummary>;
}

const MAX_PER_PAGE = 50;

/** `page` and `per_page`, clamped to the publishing API's maximum. */
export const publishingPageQuery = (params: PageParams) => pagingQuery(params, MAX_PER_PAGE);

/**
 * Public reads go out anonymously (or with the tenant's read token) and are cached once for every
 * visitor; personal reads and writes carry the user's token, and personal reads are cached per user.
 */
function publishingAccess(options: PublishingClientOptions): ServiceAccess {
  const { baseUrl, tenantId, token } = options;
  return {
    withToken: ({ access, method }, send) =>
      send(access === 'personal' ? token : method === 'GET' ? options.serviceToken : undefined),
    budgetKey: (sent) =>
      sent === undefined
        ? budgetKeys.publishingPublic(baseUrl)
        : budgetKeys.publishingToken(baseUrl, tenantId, sent),
    cacheIdentity: (access) => (access === 'personal' ? token : undefined),
  };
}

/** The core a publishing client (and the test harness's extra operations) calls through. */
export function publishingCore(options: PublishingClientOptions): ClientCore {
  return clientCore({
    service: 'publishing',
    tenant: options.tenantId,
    baseUrl: options.baseUrl,
    upstream: options.upstream,
    access: publishingAccess(options),
    headers: { 'X-Tenant': options.tenantId },
    timeoutMs: options.timeoutMs,
    operations: PUBLISHING_OPERATIONS,
    profile: options.profile,
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
  const remembered = <T>(read: Promise<T>, posts: (value: T) => readonly PostSummary[]) =>
    read.then((value) => {
      rememberPosts(core.upstream, options.tenantId, posts(value));
      return value;
    });

  const cleanStream = (stream: Stream): Stream =>
    stream.embed_code ? { ...stream, embed_code: sanitize(stream.embed_code) } : stream;

  /** The posts of a category or tag page (the two endpoints share this shape). */
  const archivePosts = (
    detail: {
      posts: { items: PostSummary[]; meta?: PageMeta | undefined };
      meta?: PageMeta | undefined;
    },
    params: PageParams,
  ): Paged<PostSummary> => ({
    items: detail.posts.items.map(cleanSummary),
    page: pageInfo(detail.meta ?? detail.posts.meta, detail.posts.items.length, params),
  });

  return {
    core,
    sanitize,
    anonymousEdition,
    editionAccess,
    cleanSummary,
    cleanStream,
    archivePosts,
    remembered,
    tenantId: options.tenantId,
  };
}

type Kit = ReturnType<typeof readingKit>;

/** Sign-in, registration, the signed-in user and sign-out. */
function accountOperations({ core }: Kit) {
  return {
    /** `POST /auth/login`. Wrong credentials → `ValidationError` with `fields.email`. */
    login(email: string, password: string): Promise<AuthResult> {
      return core.call({
        operation: 'auth.login',
        schema: authResultSchema,
        body: { email, password },
      });
    },
    /** `POST /auth/register` (subscriber). */
    register(input: RegisterInput): Promise<AuthResult> {
      return core.call({
        operation: 'auth.register',
        schema: authResultSchema,
        body: input,
      });
    },
    /** `GET /auth/me`, cached per user for `TTL.me`. */
    me(readOptions?: ReadOptions): Promise<User> {
      return core.read(
        {
          operation: 'auth.me',
          schema: meSchema,
          access: 'personal',
          ttl: TTL.me,
        },
        readOptions,
      );
    },
    /** `POST /auth/logout`: revokes the token. */
    async logout(): Promise<void> {
      await core.call({
        operation: 'auth.logout',
        schema: messageSchema,
        access: 'personal',
      });
    },
  };
}

/** Posts: public, cached once for every visitor. */
function postOperations({ core, sanitize, cleanSummary, remembered, tenantId }: Kit) {
  return {
    listPosts(params: PostListParams = {}, readOptions?: ReadOptions): Promise<Paged<PostSummary>> {
      const query = {
        ...publishingPageQuery(params),
        category: params.category,
        tag: params.tag,
        featured: params.featured === undefined ? undefined : params.featured ? '1' : '0',
        search: params.search,
      };
      const read = core.read(
        {
          operation: 'posts.list',
          schema: postListSchema,
          query,
          ttl: params.search ? TTL.search : TTL.postList,
          map: (list) => {
            const paged = toPaged(list, params);
            return { ...paged, items: paged.items.map(cleanSummary) };
          },
        },
        readOptions,
      );
      return remembered(read, (list) => list.items);
    },
    /** One published post; `content` is sanitized HTML. Unknown or draft → `NotFoundError`. */
    getPost(slug: string, readOptions?: ReadOptions): Promise<Post> {
      return core
        .read(
          {
            operation: 'posts.get',
            schema: singlePostSchema,
            params: { slug },
            ttl: TTL.post,
            map: (post) => ({ ...post, content: sanitize(post.content) }),
          },
          readOptions,
        )
        .catch((error: unknown) => {
          // Gone: its old list entry must not stand in for it.
          if (error instanceof NotFoundError) forgetPost(core.upstream, tenantId, slug);
          throw error;
        });
    },
    /** The post as a list last showed it (no `content`), if one did: a stand-in while it cannot be read. */
    knownPost(slug: string): PostSummary | undefined {
      return knownPost(core.upstream, tenantId, slug);
    },
    /** The posts lists showed in the last `withinMs`, as they showed them (no upstream call). */
    listedPosts(withinMs: number): PostSummary[] {
      return listedPosts(core.upstream, tenantId, withinMs);
    },
  };
}

/** Categories, tags and plans. */
function sectionOperations({ core, archivePosts, remembered }: Kit) {
  return {
    // Categories and tags.

    listCategories(readOptions?: ReadOptions): Promise<Category[]> {
      return core.read(
        {
          operation: 'categories.list',
          schema: categoryListSchema,
          ttl: TTL.categoryList,
          map: (list) => list.items,
        },
        readOptions,
      );
    },
    getCategory(
      slug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<CategoryWithPosts> {
      const read = core.read(
        {
          operation: 'categories.get',
          schema: categoryDetailSchema,
          params: { slug },
          query: publishingPageQuery(params),
          ttl: TTL.category,
          map: (detail) => ({ category: detail.category, posts: archivePosts(detail, params) }),
        },
        readOptions,
      );
      return remembered(read, (detail) => detail.posts.items);
    },
    listTags(readOptions?: ReadOptions): Promise<Tag[]> {
      return core.read(
        {
          operation: 'tags.list',
          schema: tagListSchema,
          ttl: TTL.tagList,
          map: (list) => list.items,
        },
        readOptions,
      );
    },
    getTag(
      slug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<TagWithPosts> {
      const read = core.read(
        {
          operation: 'tags.get',
          schema: tagDetailSchema,
          params: { slug },
          query: publishingPageQuery(params),
          ttl: TTL.tag,
          map: (detail) => ({ tag: detail.tag, posts: archivePosts(detail, params) }),
        },
        readOptions,
      );
      return remembered(read, (detail) => detail.posts.items);
    },

    // Plans.

    listPlans(readOptions?: ReadOptions): Promise<Plan[]> {
      return core.read(
        {
          operation: 'plans.list',
          schema: planListSchema,
          ttl: TTL.planList,
          map: (list) => list.items,
        },
        readOptions,
      );
    },
    getPlan(slug: string, readOptions?: ReadOptions): Promise<Plan> {
      return core.read(
        {
          operation: 'plans.get',
          schema: singlePlanSchema,
          params: { slug },
          ttl: TTL.plan,
        },
        readOptions,
      );
    },
  };
}

/** E-paper, streams and comments. */
function editionStreamCommentOperations({
  core,
  anonymousEdition,
  editionAccess,
  cleanStream,
}: Kit) {
  return {
    // E-paper: the list is the same for every reader (its badges come from `is_free`): one shared
    // copy, read with the tenant's token. An edition is the reader's own when they are signed in.

    listEditions(params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Edition>> {
      return core.read(
        {
          operation: 'epaper.list',
          schema: editionListSchema,
          query: publishingPageQuery(params),
          ttl: TTL.editionList,
          map: (list) => {
            const paged = toPaged(list, params);
            return { ...paged, items: paged.items.map(anonymousEdition) };
          },
        },
        readOptions,
      );
    },
    /** A subscriber-only edition read anonymously has `requires_subscription: true`, `pages: []`. */
    getEdition(slug: string, readOptions?: ReadOptions): Promise<Edition> {
      return core.read(
        {
          operation: 'epaper.get',
          schema: singleEditionSchema,
          params: { slug },
          access: editionAccess,
          ttl: TTL.edition,
          map: editionAccess === 'public' ? anonymousEdition : undefined,
        },
        readOptions,
      );
    },

    // Streams: `embed_code` is sanitized (iframes from allowed hosts only).

    listStreams(params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Stream>> {
      return core.read(
        {
          operation: 'streams.list',
          schema: streamListSchema,
          query: publishingPageQuery(params),
          ttl: TTL.streamList,
          map: (list) => {
            const paged = toPaged(list, params);
            return { ...paged, items: paged.items.map(cleanStream) };
          },
        },
        readOptions,
      );
    },
    getStream(slug: string, readOptions?: ReadOptions): Promise<Stream> {
      return core.read(
        {
          operation: 'streams.get',
          schema: singleStreamSchema,
          params: { slug },
          ttl: TTL.stream,
          map: cleanStream,
        },
        readOptions,
      );
    },

    // Comments.

    /** Approved top-level comments with approved replies. */
    listComments(
      postSlug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<Paged<Comment>> {
      return core.read(
        {
          operation: 'comments.list',
          schema: commentListSchema,
          params: { postSlug },
          query: publishingPageQuery(params),
          ttl: TTL.comments,
          map: (list) => toPaged(list, params),
        },
        readOptions,
      );
    },
    /** Signed in: published at once. Guest (no token): needs `author_name` + `author_email`, pending. */
    createComment(postSlug: string, input: CommentInput): Promise<CommentCreated> {
      return core.call({
        operation: 'comments.create',
        schema: commentCreatedSchema,
        params: { postSlug },
        body: input,
        access: 'personal',
      });
    },
  };
}

/**
 * A publishing client bound to one tenant and (optionally) one user token.
 *
 * Reads go through the shared cache. Public content (posts, categories, tags, plans, streams,
 * comments, the e-paper list, an edition for anyone not signed in) is fetched without the user's
 * token (with the tenant's read token when it has one), so every visitor shares one cached copy.
 * Personal reads (`me`, a signed-in reader's edition) send the user's token and are cached per user
 * (token hash in the key), so a subscriber's edition pages never reach an anonymous visitor.
 *
 * Writes are never cached and invalidate nothing: after a write, read again with `{ fresh: true }`
 * where the page must show the change at once (otherwise it appears within the resource's TTL).
 *
 * Operations the site does not use (post writing, comment moderation) live in the test harness,
 * `tests/integration/operations.ts`.
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
