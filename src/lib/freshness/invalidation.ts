import { changedTags, postsChanged, type TaggedChange } from '../delivery/cache-tags.ts';
import { invalidateRoutes } from '../delivery/route-cache.ts';
import { siteUpstream } from '../services/clients.ts';
import type { InvalidationTarget } from '../upstream/cache.ts';

/**
 * What to drop, on one server, when a tenant's posts change (the change watcher), a newsroom
 * purges or a comment thread changes: pages in the route cache (by tag, src/lib/delivery/cache-tags.ts)
 * and values in the data cache (by operation, or by one parameter for a post's own values). Both
 * are marked stale, not deleted: refreshed when the budget allows, served when it does not.
 * `./bus.ts` sends the same to every server.
 */
export interface Invalidation extends TaggedChange {
  /** Epoch ms when it was decided: values stored before it are out of date on every server. */
  at: number;
}

/** Every list of posts, and the category and tag lists (their counts). */
const LIST_OPERATIONS = ['posts.list', 'categories.list', 'tags.list'];

/** The data cache's part: the lists, the named posts, categories and tags, and comment threads. */
export function dataTarget(invalidation: Invalidation): InvalidationTarget {
  const base = { service: 'publishing' as const, tenant: invalidation.tenant };
  if (invalidation.everything) return base;
  const one = (operation: string, param: string) => (value: string) => ({
    operation,
    param,
    value,
  });
  // A purge of a tag names no post: every post's own value goes (its pages are dropped too).
  const everyPost = (invalidation.postsTagged?.length ?? 0) > 0;
  return {
    ...base,
    operations: [
      ...(postsChanged(invalidation) ? LIST_OPERATIONS : []),
      ...(everyPost ? ['posts.get', 'tags.get'] : []),
    ],
    entries: [
      ...(invalidation.slugs ?? []).map(one('posts.get', 'slug')),
      ...(invalidation.categories ?? []).map(one('categories.get', 'slug')),
      ...(invalidation.topics ?? []).map(one('tags.get', 'slug')),
      ...(invalidation.comments ?? []).map(one('comments.list', 'postSlug')),
    ],
  };
}

/** Marks it stale in this server's data cache and route cache. */
export async function applyLocally(invalidation: Invalidation): Promise<void> {
  siteUpstream().cache.invalidate(dataTarget(invalidation), invalidation.at);
  await invalidateRoutes(changedTags(invalidation));
}
