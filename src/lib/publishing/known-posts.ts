import { LRUCache } from 'lru-cache';
import { memo } from '../memo.ts';
import type { PostSummary } from './schema.ts';

/**
 * Every post a list has shown, by tenant and slug: its list entry (never `content`). When a post's
 * own read is refused and the cache has no copy, its page shows this entry as a partial article
 * instead of a 503 (src/lib/reading/loaders.ts), and related posts come from what lists showed
 * lately. In memory per upstream and tenant, bounded: what no list showed for longest goes first.
 */
const MAX_PER_TENANT = 1000;

interface Known {
  post: PostSummary;
  /** When a list last showed it (epoch ms). */
  seenAt: number;
}

/** Per upstream, then per tenant (sites come and go: at most this many indexes). */
const MAX_TENANTS = 1000;
const indexes = memo((_owner: object) =>
  memo((_tenant: string) => new LRUCache<string, Known>({ max: MAX_PER_TENANT }), {
    max: MAX_TENANTS,
  }),
);

/** The posts lists showed for `tenant`, read through `owner` (an upstream). */
export function knownPosts(owner: object, tenant: string) {
  // Looked up on each use: `forgetTenantPosts` replaces the tenant's index.
  const index = () => indexes(owner)(tenant);
  return {
    /** Records the entries of a list read. */
    remember: (posts: readonly PostSummary[]): void => {
      const [seenAt, bySlug] = [Date.now(), index()];
      for (const post of posts) {
        // A cached list hands back the same entries on every read: their record is brought up to
        // date (`get` makes it the most recent, as `set` would) instead of made anew every render.
        const known = bySlug.get(post.slug);
        if (known?.post === post) known.seenAt = seenAt;
        else bySlug.set(post.slug, { post, seenAt });
      }
    },
    /** The last list entry seen for this post, if any list showed it. */
    get: (slug: string): PostSummary | undefined => index().get(slug)?.post,
    /** Every post a list showed in the last `withinMs` (related posts without another list read). */
    listed: (withinMs: number): PostSummary[] => {
      const since = Date.now() - withinMs;
      return [...index().values()].filter((known) => known.seenAt >= since).map(({ post }) => post);
    },
    /** Whether any list of this tenant has been read yet (a cold start has none). */
    any: (): boolean => index().size > 0,
    /** Forgets a post the upstream says is gone (its list entry must not stand in for it). */
    forget: (slug: string): boolean => index().delete(slug),
  };
}

/**
 * Forgets every post lists showed for `tenant` (removed, or reading another API now: its old
 * posts must not stand in for, or be related to, the new API's).
 */
export function forgetTenantPosts(owner: object, tenant: string): void {
  indexes(owner).forget(tenant);
}
