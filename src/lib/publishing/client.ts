import { DEFAULT_IFRAME_HOSTS, sanitizePostHtml } from '../content/sanitize.ts';
import { budgetKeys } from '../upstream/budget.ts';
import type { HttpMethod, QueryValue } from '../upstream/http.ts';
import type { PageParams, Paged } from '../upstream/parse.ts';
import { pageInfo, pageQuery as pagingQuery, toPaged } from '../upstream/parse.ts';
import { cachedRead, defaultUpstream, fetchParsed } from '../upstream/runtime.ts';
import type { CachedReadOptions, Upstream } from '../upstream/runtime.ts';
import { TTL } from '../upstream/ttl.ts';
import type { CachePolicy } from '../upstream/ttl.ts';
import {
  authResultSchema,
  categoryDetailSchema,
  categoryListSchema,
  commentApprovedSchema,
  commentCreatedSchema,
  commentListSchema,
  editionListSchema,
  meSchema,
  messageSchema,
  planListSchema,
  postListSchema,
  postWriteResultSchema,
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
  PostInput,
  PostSummary,
  PostUpdate,
  PostWriteResult,
  RegisterInput,
  Stream,
  Tag,
  User,
} from './schema.ts';
import type { z } from 'zod';

export interface PublishingClientOptions {
  /** Tenant short name, sent as `X-Tenant` on every call. */
  tenantId: string;
  /** The `/api/v1` base address. */
  baseUrl: string;
  /** A signed-in user's token; only personal reads and writes send it. */
  token?: string | undefined;
  /**
   * The tenant's server read token (`publishing.tokenEnv`). Public reads send it so they count against
   * its 240/min instead of the 60/min per-IP budget shared by every tenant. Never sent on personal
   * reads, so it cannot unlock paid e-paper pages for anonymous visitors.
   */
  serviceToken?: string | undefined;
  /** Shared budget + cache + metrics; the process default when absent. */
  upstream?: Upstream | undefined;
  /** Extra iframe hosts kept in post content and stream embeds (e.g. the site's player host). */
  iframeHosts?: readonly string[] | undefined;
  timeoutMs?: number | undefined;
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

export interface TagWithPosts {
  tag: Tag;
  posts: Paged<PostSummary>;
}

export type ReadOptions = CachedReadOptions;

const MAX_PER_PAGE = 50;

const pageQuery = (params: PageParams) => pagingQuery(params, MAX_PER_PAGE);

/**
 * A publishing client bound to one tenant and (optionally) one user token.
 *
 * Reads go through the shared cache. Public content (posts, categories, tags, plans, streams,
 * comments) is always fetched anonymously, whatever the token, so every visitor shares one cached
 * copy and the anonymous budget. Personal reads (`me`, e-paper, pending comments) send the token
 * and are cached per user (token hash in the key), so a subscriber's edition pages never reach an
 * anonymous visitor.
 *
 * Writes are never cached and invalidate nothing: after a write, read again with `{ fresh: true }`
 * where the page must show the change at once (otherwise it appears within the resource's TTL).
 */
export function publishingClient(options: PublishingClientOptions) {
  const up = options.upstream ?? defaultUpstream();
  const { tenantId, baseUrl, token } = options;
  const iframeHosts = [...DEFAULT_IFRAME_HOSTS, ...(options.iframeHosts ?? [])];
  const sanitize = (html: string): string => sanitizePostHtml(html, { iframeHosts });

  const call = <S extends z.ZodType>(
    operation: string,
    schema: S,
    request: {
      method?: HttpMethod;
      path: string;
      query?: Record<string, QueryValue> | undefined;
      body?: unknown;
      /** Send the user's token (personal reads and writes). */
      auth?: boolean;
    },
  ): Promise<z.output<S>> => {
    const isRead = (request.method ?? 'GET') === 'GET';
    const withToken = request.auth === true ? token : isRead ? options.serviceToken : undefined;
    return fetchParsed(
      up,
      {
        service: 'publishing',
        operation,
        tenant: tenantId,
        baseUrl,
        path: request.path,
        method: request.method ?? 'GET',
        query: request.query,
        body: request.body,
        headers: { 'X-Tenant': tenantId },
        token: withToken,
        budgetKey:
          withToken === undefined
            ? budgetKeys.publishingPublic(baseUrl)
            : budgetKeys.publishingToken(baseUrl, tenantId, withToken),
        timeoutMs: options.timeoutMs,
      },
      schema,
    );
  };

  const read = <T>(
    operation: string,
    params: Record<string, unknown>,
    policy: CachePolicy,
    personal: boolean,
    load: () => Promise<T>,
    readOptions: ReadOptions = {},
  ): Promise<T> =>
    cachedRead(
      up,
      {
        service: 'publishing',
        tenant: tenantId,
        operation,
        params,
        token: personal ? token : undefined,
      },
      policy,
      load,
      readOptions,
    );

  const enc = encodeURIComponent;

  const cleanSummary = (post: PostSummary): PostSummary =>
    post.content === undefined ? post : { ...post, content: sanitize(post.content) };

  const cleanStream = (stream: Stream): Stream =>
    stream.embed_code ? { ...stream, embed_code: sanitize(stream.embed_code) } : stream;

  return {
    tenantId,
    /** The same client acting for another user (or anonymously with `undefined`). */
    withToken(nextToken: string | undefined) {
      return publishingClient({ ...options, upstream: up, token: nextToken });
    },

    // Authentication (never cached).

    /** `POST /auth/login`. Wrong credentials → `ValidationError` with `fields.email`. */
    login(email: string, password: string): Promise<AuthResult> {
      return call('auth.login', authResultSchema, {
        method: 'POST',
        path: '/auth/login',
        body: { email, password },
      });
    },
    /** `POST /auth/register` (subscriber). */
    register(input: RegisterInput): Promise<AuthResult> {
      return call('auth.register', authResultSchema, {
        method: 'POST',
        path: '/auth/register',
        body: input,
      });
    },
    /** `GET /auth/me`, cached per user for `TTL.me`. */
    me(readOptions?: ReadOptions): Promise<User> {
      return read(
        'auth.me',
        {},
        TTL.me,
        true,
        () => call('auth.me', meSchema, { path: '/auth/me', auth: true }),
        readOptions,
      );
    },
    /** `POST /auth/logout`: revokes the token. */
    async logout(): Promise<void> {
      await call('auth.logout', messageSchema, {
        method: 'POST',
        path: '/auth/logout',
        auth: true,
      });
    },

    // Posts.

    listPosts(params: PostListParams = {}, readOptions?: ReadOptions): Promise<Paged<PostSummary>> {
      const query: Record<string, QueryValue> = {
        ...pageQuery(params),
        category: params.category,
        tag: params.tag,
        featured: params.featured === undefined ? undefined : params.featured ? '1' : '0',
        search: params.search,
      };
      return read(
        'posts.list',
        query,
        TTL.postList,
        false,
        async () => {
          const list = await call('posts.list', postListSchema, { path: '/posts', query });
          const paged = toPaged(list, params);
          return { ...paged, items: paged.items.map(cleanSummary) };
        },
        readOptions,
      );
    },
    /** One published post; `content` is sanitized HTML. Unknown or draft → `NotFoundError`. */
    getPost(slug: string, readOptions?: ReadOptions): Promise<Post> {
      return read(
        'posts.get',
        { slug },
        TTL.post,
        false,
        async () => {
          const post = await call('posts.get', singlePostSchema, { path: `/posts/${enc(slug)}` });
          return { ...post, content: sanitize(post.content) };
        },
        readOptions,
      );
    },
    createPost(input: PostInput): Promise<PostWriteResult> {
      return call('posts.create', postWriteResultSchema, {
        method: 'POST',
        path: '/posts',
        body: input,
        auth: true,
      });
    },
    updatePost(id: number | string, input: PostUpdate): Promise<PostWriteResult> {
      return call('posts.update', postWriteResultSchema, {
        method: 'PATCH',
        path: `/posts/${enc(String(id))}`,
        body: input,
        auth: true,
      });
    },
    async deletePost(id: number | string): Promise<void> {
      await call('posts.delete', messageSchema, {
        method: 'DELETE',
        path: `/posts/${enc(String(id))}`,
        auth: true,
      });
    },

    // Categories and tags.

    listCategories(readOptions?: ReadOptions): Promise<Category[]> {
      return read(
        'categories.list',
        {},
        TTL.categoryList,
        false,
        async () =>
          (await call('categories.list', categoryListSchema, { path: '/categories' })).items,
        readOptions,
      );
    },
    getCategory(
      slug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<CategoryWithPosts> {
      const query = pageQuery(params);
      return read(
        'categories.get',
        { slug, ...query },
        TTL.category,
        false,
        async () => {
          const detail = await call('categories.get', categoryDetailSchema, {
            path: `/categories/${enc(slug)}`,
            query,
          });
          const posts = detail.posts;
          return {
            category: detail.category,
            posts: {
              items: posts.items.map(cleanSummary),
              page: pageInfo(detail.meta ?? posts.meta, posts.items.length, params),
            },
          };
        },
        readOptions,
      );
    },
    listTags(readOptions?: ReadOptions): Promise<Tag[]> {
      return read(
        'tags.list',
        {},
        TTL.tagList,
        false,
        async () => (await call('tags.list', tagListSchema, { path: '/tags' })).items,
        readOptions,
      );
    },
    getTag(
      slug: string,
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<TagWithPosts> {
      const query = pageQuery(params);
      return read(
        'tags.get',
        { slug, ...query },
        TTL.tag,
        false,
        async () => {
          const detail = await call('tags.get', tagDetailSchema, {
            path: `/tags/${enc(slug)}`,
            query,
          });
          const posts = detail.posts;
          return {
            tag: detail.tag,
            posts: {
              items: posts.items.map(cleanSummary),
              page: pageInfo(detail.meta ?? posts.meta, posts.items.length, params),
            },
          };
        },
        readOptions,
      );
    },

    // Plans.

    listPlans(readOptions?: ReadOptions): Promise<Plan[]> {
      return read(
        'plans.list',
        {},
        TTL.planList,
        false,
        async () => (await call('plans.list', planListSchema, { path: '/plans' })).items,
        readOptions,
      );
    },
    getPlan(slug: string, readOptions?: ReadOptions): Promise<Plan> {
      return read(
        'plans.get',
        { slug },
        TTL.plan,
        false,
        () => call('plans.get', singlePlanSchema, { path: `/plans/${enc(slug)}` }),
        readOptions,
      );
    },

    // E-paper: personal (what the caller may see depends on their subscription).

    listEditions(params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Edition>> {
      const query = pageQuery(params);
      return read(
        'epaper.list',
        query,
        TTL.editionList,
        true,
        async () =>
          toPaged(
            await call('epaper.list', editionListSchema, { path: '/epaper', query, auth: true }),
            params,
          ),
        readOptions,
      );
    },
    /** A subscriber-only edition read anonymously has `requires_subscription: true`, `pages: []`. */
    getEdition(slug: string, readOptions?: ReadOptions): Promise<Edition> {
      return read(
        'epaper.get',
        { slug },
        TTL.edition,
        true,
        () => call('epaper.get', singleEditionSchema, { path: `/epaper/${enc(slug)}`, auth: true }),
        readOptions,
      );
    },

    // Streams: `embed_code` is sanitized (iframes from allowed hosts only).

    listStreams(params: PageParams = {}, readOptions?: ReadOptions): Promise<Paged<Stream>> {
      const query = pageQuery(params);
      return read(
        'streams.list',
        query,
        TTL.streamList,
        false,
        async () => {
          const paged = toPaged(
            await call('streams.list', streamListSchema, { path: '/streams', query }),
            params,
          );
          return { ...paged, items: paged.items.map(cleanStream) };
        },
        readOptions,
      );
    },
    getStream(slug: string, readOptions?: ReadOptions): Promise<Stream> {
      return read(
        'streams.get',
        { slug },
        TTL.stream,
        false,
        async () =>
          cleanStream(
            await call('streams.get', singleStreamSchema, { path: `/streams/${enc(slug)}` }),
          ),
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
      const query = pageQuery(params);
      return read(
        'comments.list',
        { postSlug, ...query },
        TTL.comments,
        false,
        async () =>
          toPaged(
            await call('comments.list', commentListSchema, {
              path: `/posts/${enc(postSlug)}/comments`,
              query,
            }),
            params,
          ),
        readOptions,
      );
    },
    /** Signed in: published at once. Guest (no token): needs `author_name` + `author_email`, pending. */
    createComment(postSlug: string, input: CommentInput): Promise<CommentCreated> {
      return call('comments.create', commentCreatedSchema, {
        method: 'POST',
        path: `/posts/${enc(postSlug)}/comments`,
        body: input,
        auth: true,
      });
    },
    /** Editors and admins: comments awaiting moderation (per user, short TTL). */
    listPendingComments(
      params: PageParams = {},
      readOptions?: ReadOptions,
    ): Promise<Paged<Comment>> {
      const query = { status: 'pending', ...pageQuery(params) };
      return read(
        'comments.pending',
        query,
        TTL.pendingComments,
        true,
        async () =>
          toPaged(
            await call('comments.pending', commentListSchema, {
              path: '/comments',
              query,
              auth: true,
            }),
            params,
          ),
        readOptions,
      );
    },
    approveComment(
      id: number | string,
    ): Promise<{ id: number | string; status?: string | undefined }> {
      return call('comments.approve', commentApprovedSchema, {
        method: 'POST',
        path: `/comments/${enc(String(id))}/approve`,
        auth: true,
      });
    },
  };
}

export type PublishingClient = ReturnType<typeof publishingClient>;
