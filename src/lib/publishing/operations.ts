import type { OperationNeeds } from '../upstream/profile.ts';

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
  },
  'auth.register': {
    kind: 'item',
    read: false,
    method: 'POST',
    path: '/auth/register',
    needs: ['token'],
  },
  'auth.me': { kind: 'item', read: false, path: '/auth/me', needs: ['id', 'name'] },
  'auth.logout': { kind: 'item', read: false, method: 'POST', path: '/auth/logout', needs: [] },
  'posts.list': {
    kind: 'list',
    read: true,
    path: '/posts',
    needs: ['id', 'title', 'slug', 'published_at', 'author.name'],
  },
  'posts.get': {
    kind: 'item',
    read: true,
    path: '/posts/{slug}',
    needs: ['id', 'title', 'slug', 'content', 'published_at', 'author.name'],
  },
  'categories.list': {
    kind: 'list',
    read: true,
    path: '/categories',
    needs: ['id', 'name', 'slug'],
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
  },
  'tags.list': { kind: 'list', read: true, path: '/tags', needs: ['id', 'name', 'slug'] },
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
  },
  'plans.list': {
    kind: 'list',
    read: true,
    path: '/plans',
    needs: ['name', 'slug', 'price', 'currency', 'interval'],
  },
  'plans.get': {
    kind: 'item',
    read: true,
    path: '/plans/{slug}',
    needs: ['name', 'slug', 'price', 'currency', 'interval'],
  },
  'epaper.list': {
    kind: 'list',
    read: true,
    path: '/epaper',
    needs: ['title', 'slug', 'published_at', 'cover_image_url'],
  },
  'epaper.get': {
    kind: 'item',
    read: true,
    path: '/epaper/{slug}',
    needs: ['title', 'slug', 'page_count'],
  },
  'streams.list': {
    kind: 'list',
    read: true,
    path: '/streams',
    needs: ['title', 'slug', 'status'],
  },
  'streams.get': {
    kind: 'item',
    read: true,
    path: '/streams/{slug}',
    needs: ['title', 'slug', 'status'],
  },
  'comments.list': {
    kind: 'list',
    read: true,
    path: '/posts/{postSlug}/comments',
    needs: ['id', 'content', 'author_name', 'created_at'],
  },
  'comments.create': {
    kind: 'item',
    read: false,
    method: 'POST',
    path: '/posts/{postSlug}/comments',
    needs: [],
  },
} as const satisfies Record<string, OperationNeeds>;
