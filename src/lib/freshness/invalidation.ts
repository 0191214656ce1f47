import { z } from 'zod';
import { tagOf } from '../delivery/cache-tags.ts';
import { categoryPath, postPath, tagPath } from '../reading/paths.ts';
import type { InvalidationTarget } from '../upstream/cache.ts';

const slugs = z.array(z.string()).readonly().optional();

/** What changed, as far as the caches care. */
const TaggedChangeSchema = z.object({
  tenant: z.string(),
  /** Posts new, changed or gone: their pages, the pages showing them, and the lists. */
  slugs,
  /** Tag slugs whose pages of posts list the changed posts. */
  topics: slugs,
  /** Category slugs whose pages of posts list the changed posts. */
  categories: slugs,
  /** Tag slugs whose posts' own pages go too (a newsroom's purge of a tag). */
  postsTagged: slugs,
  /** Posts whose comment threads changed: their pages only. */
  comments: slugs,
  everything: z.boolean().optional(),
});
export type TaggedChange = z.infer<typeof TaggedChangeSchema>;

/**
 * What to drop, on one server, when a tenant's posts change (the change watcher), a newsroom
 * purges or a comment thread changes: pages in the route cache (by tag, src/lib/delivery/cache-tags.ts)
 * and values in the data cache (by operation, or by one parameter for a post's own values). Both
 * are marked stale, not deleted: refreshed when the budget allows, served when it does not.
 * `./bus.ts` sends the same to every server.
 */
export const InvalidationSchema = TaggedChangeSchema.extend({
  /** Epoch ms when it was decided: values stored before it are out of date on every server. */
  at: z.number(),
});
export type Invalidation = z.infer<typeof InvalidationSchema>;

/** What a change's slugs drop: route cache tags, the data cache's values, addresses at the edge. */
type Drops = [
  field: 'slugs' | 'categories' | 'topics' | 'postsTagged' | 'comments',
  tags: ((tenant: string, slug: string) => string)[],
  value?: [operation: string, param: string],
  path?: (slug: string) => string,
];
const DROPS: Drops[] = [
  ['slugs', [tagOf.post], ['posts.get', 'slug'], postPath],
  ['categories', [tagOf.category], ['categories.get', 'slug'], categoryPath],
  ['topics', [tagOf.tag], ['tags.get', 'slug'], (name) => tagPath({ name })],
  // A purge of a tag names no post: its posts' pages go by tag, their values with every post's.
  ['postsTagged', [tagOf.tag, tagOf.tagged]],
  ['comments', [tagOf.post], ['comments.list', 'postSlug'], postPath],
];

/** Each slug `change` names, with what it drops (./edge.ts reads the addresses). */
export const namedDrops = (change: TaggedChange) =>
  DROPS.flatMap(([field, tags, value, path]) =>
    (change[field] ?? []).map((slug) => ({ field, tags, value, path, slug })),
  );

/** Whether `change` touches posts (and so the lists), not only comment threads. */
export const postsChanged = (change: TaggedChange): boolean =>
  namedDrops(change).some(({ field }) => field !== 'comments');

/** The route cache tags whose pages `change` drops. */
export function changedTags(change: TaggedChange): string[] {
  const { tenant } = change;
  if (change.everything) return [tagOf.tenant(tenant)];
  const named = namedDrops(change).flatMap(({ tags, slug }) =>
    tags.map((tag) => tag(tenant, slug)),
  );
  return [...new Set([...(postsChanged(change) ? [tagOf.lists(tenant)] : []), ...named])];
}

/** Every list of posts, and the category and tag lists (their counts). */
const LIST_OPERATIONS = ['posts.list', 'categories.list', 'tags.list'];

/** The data cache's part: the lists, the named posts, categories and tags, and comment threads. */
export function dataTarget(invalidation: Invalidation): InvalidationTarget {
  const base = { service: 'publishing' as const, tenant: invalidation.tenant };
  if (invalidation.everything) return base;
  const everyPost = (invalidation.postsTagged?.length ?? 0) > 0;
  return {
    ...base,
    operations: [
      ...(postsChanged(invalidation) ? LIST_OPERATIONS : []),
      ...(everyPost ? ['posts.get', 'tags.get'] : []),
    ],
    entries: namedDrops(invalidation).flatMap(({ value, slug }) =>
      value ? [{ operation: value[0], param: value[1], value: slug }] : [],
    ),
  };
}
