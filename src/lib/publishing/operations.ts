import type { z } from 'zod';
import type { CallSpec, ClientCore, ReadOptions, ReadSpec } from '../upstream/client-core.ts';
import type { OperationNeeds } from '../upstream/profile.ts';
import { TTL } from '../upstream/ttl.ts';
import type { CachePolicy } from '../upstream/ttl.ts';
import * as s from './schema.ts';

/** An operation as a client declares it: what it needs, the schema it is read with, its cache lifetime. */
export type Declared = OperationNeeds & { schema: z.ZodType; ttl?: CachePolicy };

/**
 * A client's reads and calls by operation name (both clients'): schema, path and lifetime come from
 * its declaration; `spec` adds parameters, a query, a `map` or another lifetime.
 */
export function declaredCore<O extends { [K in keyof O]: Declared }>(
  core: ClientCore,
  operations: O,
) {
  return {
    read: <K extends keyof O & string, T = z.output<O[K]['schema']>>(
      operation: K,
      spec: Partial<ReadSpec<O[K]['schema'], T>> = {},
      readOptions?: ReadOptions,
    ): Promise<T> => {
      const schema: O[K]['schema'] = operations[operation].schema;
      const ttl = spec.ttl ?? operations[operation].ttl;
      if (!ttl) throw new TypeError(`${operation}: no cache lifetime declared`);
      return core.read<O[K]['schema'], T>({ operation, schema, ...spec, ttl }, readOptions);
    },
    call: <K extends keyof O & string>(
      operation: K,
      spec: Partial<CallSpec<O[K]['schema']>> = {},
    ): Promise<z.output<O[K]['schema']>> =>
      core.call<O[K]['schema']>({ operation, schema: operations[operation].schema, ...spec }),
  };
}

/**
 * What the site reads of each publishing operation, in its own field names: the client declares
 * these, a tenant's profile (`profiles/*.json`) says how its API spells them, and the doctor
 * (`npm run doctor`) checks them. `path` is the default dialect's; the contract gives only login and
 * the post list.
 */
export const PUBLISHING_OPERATIONS = {
  'auth.login': {
    kind: 'item',
    read: false,
    method: 'POST',
    path: '/auth/login',
    needs: ['token'],
    schema: s.authResultSchema,
  },
  'auth.register': {
    kind: 'item',
    read: false,
    method: 'POST',
    path: '/auth/register',
    needs: ['token'],
    schema: s.authResultSchema,
  },
  'auth.me': {
    kind: 'item',
    read: false,
    path: '/auth/me',
    needs: ['id', 'name'],
    schema: s.meSchema,
    ttl: TTL.me,
  },
  'auth.logout': {
    kind: 'item',
    read: false,
    method: 'POST',
    path: '/auth/logout',
    needs: [],
    schema: s.messageSchema,
  },
  'posts.list': {
    kind: 'list',
    read: true,
    path: '/posts',
    needs: ['id', 'title', 'slug', 'published_at', 'author.name'],
    schema: s.postListSchema,
    ttl: TTL.postList,
  },
  'posts.get': {
    kind: 'item',
    read: true,
    path: '/posts/{slug}',
    needs: ['id', 'title', 'slug', 'content', 'published_at', 'author.name'],
    schema: s.singlePostSchema,
    ttl: TTL.post,
  },
  'categories.list': {
    kind: 'list',
    read: true,
    path: '/categories',
    needs: ['id', 'name', 'slug'],
    schema: s.categoryListSchema,
    ttl: TTL.categoryList,
  },
  'categories.get': {
    kind: 'item',
    read: true,
    path: '/categories/{slug}',
    needs: [
      'category.id',
      'category.name',
      'category.slug',
      'posts',
      'posts[].id',
      'posts[].title',
      'posts[].slug',
      'posts[].author.name',
    ],
    schema: s.categoryDetailSchema,
    ttl: TTL.category,
  },
  'tags.list': {
    kind: 'list',
    read: true,
    path: '/tags',
    needs: ['id', 'name', 'slug'],
    schema: s.tagListSchema,
    ttl: TTL.tagList,
  },
  'tags.get': {
    kind: 'item',
    read: true,
    path: '/tags/{slug}',
    needs: [
      'tag.id',
      'tag.name',
      'tag.slug',
      'posts',
      'posts[].id',
      'posts[].title',
      'posts[].slug',
      'posts[].author.name',
    ],
    schema: s.tagDetailSchema,
    ttl: TTL.tag,
  },
  'plans.list': {
    kind: 'list',
    read: true,
    path: '/plans',
    needs: ['name', 'slug', 'price', 'currency', 'interval'],
    schema: s.planListSchema,
    ttl: TTL.planList,
  },
  'plans.get': {
    kind: 'item',
    read: true,
    path: '/plans/{slug}',
    needs: ['name', 'slug', 'price', 'currency', 'interval'],
    schema: s.singlePlanSchema,
    ttl: TTL.plan,
  },
  'epaper.list': {
    kind: 'list',
    read: true,
    path: '/epaper',
    needs: ['title', 'slug', 'published_at', 'cover_image_url'],
    schema: s.editionListSchema,
    ttl: TTL.editionList,
  },
  'epaper.get': {
    kind: 'item',
    read: true,
    path: '/epaper/{slug}',
    needs: ['title', 'slug', 'page_count'],
    schema: s.singleEditionSchema,
    ttl: TTL.edition,
  },
  'streams.list': {
    kind: 'list',
    read: true,
    path: '/streams',
    needs: ['title', 'slug', 'status'],
    schema: s.streamListSchema,
    ttl: TTL.streamList,
  },
  'streams.get': {
    kind: 'item',
    read: true,
    path: '/streams/{slug}',
    needs: ['title', 'slug', 'status'],
    schema: s.singleStreamSchema,
    ttl: TTL.stream,
  },
  'comments.list': {
    kind: 'list',
    read: true,
    path: '/posts/{postSlug}/comments',
    needs: ['id', 'content', 'author_name', 'created_at'],
    schema: s.commentListSchema,
    ttl: TTL.comments,
  },
  'comments.create': {
    kind: 'item',
    read: false,
    method: 'POST',
    path: '/posts/{postSlug}/comments',
    needs: [],
    schema: s.commentCreatedSchema,
  },
} as const satisfies Record<string, Declared>;
