/**
 * What changed among the newest posts between two looks of the change watcher: new, changed
 * (`updated_at` or `published_at` moved) and vanished (unpublished or deleted) posts.
 */
export interface SeenPost {
  id: number | string;
  slug: string;
  publishedAt: string | null;
  updatedAt: string | null;
  /** Category and tag slugs: their pages list the post too. */
  category?: string | null | undefined;
  topics?: string[] | undefined;
}

export interface PostChange {
  kind: 'new' | 'changed' | 'vanished';
  slug: string;
  /** The post as seen (the last time, for a vanished one): what lists it. */
  post: SeenPost;
  /** When the upstream says it happened (for the watcher-lag metric); unknown for vanished posts. */
  at: string | null;
}

function newer(a: string | null, b: string | null): boolean {
  return (a ?? '') > (b ?? '');
}

function oldestOf(posts: readonly SeenPost[]): string | null {
  return posts.reduce<string | null>(
    (min, post) => (min === null || newer(min, post.publishedAt) ? post.publishedAt : min),
    null,
  );
}

/**
 * `previous` is the last look (`undefined` on the first: nothing is a change then). A post missing
 * from `current` vanished only if it would still be in the window: published no earlier than the
 * oldest post shown now, or the window is not full (otherwise newer posts pushed it out).
 */
export function postChanges(
  previous: readonly SeenPost[] | undefined,
  current: readonly SeenPost[],
  windowSize: number,
): PostChange[] {
  if (!previous) return [];
  const before = new Map(previous.map((post) => [String(post.id), post]));
  const now = new Map(current.map((post) => [String(post.id), post]));
  const changes: PostChange[] = [];
  const oldestBefore = oldestOf(previous);
  for (const post of current) {
    const old = before.get(String(post.id));
    if (!old) {
      // Older than the last window's oldest: moved up into the window (a post above it vanished).
      const shiftedIn = previous.length >= windowSize && newer(oldestBefore, post.publishedAt);
      const at = post.publishedAt ?? post.updatedAt;
      if (!shiftedIn) changes.push({ kind: 'new', slug: post.slug, post, at });
    } else if (
      old.updatedAt !== post.updatedAt ||
      old.publishedAt !== post.publishedAt ||
      old.slug !== post.slug
    ) {
      changes.push({
        kind: 'changed',
        slug: post.slug,
        post,
        at: post.updatedAt ?? post.publishedAt,
      });
      if (old.slug !== post.slug)
        changes.push({ kind: 'vanished', slug: old.slug, post: old, at: null });
    }
  }
  const oldest = oldestOf(current);
  for (const post of previous) {
    if (now.has(String(post.id))) continue;
    const stillInWindow = current.length < windowSize || !newer(oldest, post.publishedAt);
    if (stillInWindow) changes.push({ kind: 'vanished', slug: post.slug, post, at: null });
  }
  return changes;
}

/**
 * What a watcher's first look compares with when no earlier look is stored (no Redis, or a fresh
 * one): the posts as they were before `since` (the watcher's start). The first look comes anywhere
 * in the first interval, so a post published or updated between the start and that look is a
 * change the caches may already have missed; without this it would be taken for the baseline.
 */
export function seenBefore(current: readonly SeenPost[], since: number): SeenPost[] {
  const time = (at: string | null) => (at === null ? Number.NaN : Date.parse(at));
  return current.filter((post) => {
    const latest = Math.max(time(post.publishedAt), time(post.updatedAt));
    // A post without dates cannot be told new: it counts as seen.
    return Number.isNaN(latest) || latest < since;
  });
}
