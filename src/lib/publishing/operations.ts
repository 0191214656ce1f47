import type { Declared } from '../upstream/client-core.ts';
import { LOGIN_OPERATION, loginSchema, messageSchema } from '../upstream/parse.ts';
import { TTL } from '../upstream/ttl.ts';
import * as s from './schema.ts';

/**
 * What the site reads of each publishing operation, in its own field names: the client declares
 * these, a tenant's profile (`profiles/*.json`) says how its API spells them, and the doctor
 * (`npm run doctor`) checks them. `path` is the default dialect's; the contract gives only login and
 * the post list.
 */
export const PUBLISHING_OPERATIONS = {
  'auth.login': LOGIN_OPERATION,
  'auth.register': {
    method: 'POST',
    path: '/auth/register',
    needs: ['token'],
    schema: loginSchema,
  },
  'auth.me': {
    path: '/auth/me',
    needs: ['id', 'name'],
    schema: s.meSchema,
    ttl: TTL.me,
  },
  'auth.logout': {
    method: 'POST',
    path: '/auth/logout',
    needs: [],
    schema: messageSchema,
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
    method: 'POST',
    path: '/posts/{postSlug}/comments',
    needs: [],
    schema: s.commentCreatedSchema,
  },
} as const satisfies Record<string, Declared>;
