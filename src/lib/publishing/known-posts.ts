import { LRUCache } from 'lru-cache';
import type { PostSummary } from './schema.ts';

/**
 * Every post a list has shown (home, a category, a tag, a feed, the change watcher's look), by tenant
 * and slug: its list entry (title, excerpt, picture, author, date, category; never `content`).
 *
 * When a post's own read is refused (the budget is spent, the upstream is down) and the cache has
 * no copy, its post page can still show this entry as a partial article instead of a 503
 * (src/lib/reading/loaders.ts `loadPostPage`). One index per upstream (the site has one per
 * process; tests make their own), in memory and bounded: the newest list read wins, the entries no
 * list showed for longest go first.
 */
const MAX_ENTRIES = 5000;

const indexes = new WeakMap<object, LRUCache<string, PostSummary>>();

function indexOf(owner: object): LRUCache<string, PostSummary> {
  let index = indexes.get(owner);
  if (!index) {
    index = new LRUCache({ max: MAX_ENTRIES });
    indexes.set(owner, index);
  }
  return index;
}

const keyOf = (tenant: string, slug: string) => `${tenant}\u0000${slug}`;

/** Records the entries of a list read for `tenant` (`owner`: the upstream it was read through). */
export function rememberPosts(owner: object, tenant: string, posts: readonly PostSummary[]): void {
  const index = indexOf(owner);
  for (const post of posts) index.set(keyOf(tenant, post.slug), post);
}

/** The last list entry seen for this post, if any list showed it. */
export function knownPost(owner: object, tenant: string, slug: string): PostSummary | undefined {
  return indexes.get(owner)?.get(keyOf(tenant, slug));
}

/** Forgets a post the upstream says is gone (its list entry must not stand in for it). */
export function forgetPost(owner: object, tenant: string, slug: string): void {
  indexes.get(owner)?.delete(keyOf(tenant, slug));
}
