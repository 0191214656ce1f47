import { invalidateRoutes } from '../delivery/route-cache.ts';
import { siteUpstream } from '../site/clients.ts';

/**
 * What to drop, on one server, when a tenant's posts change (the change watcher) or a newsroom
 * purges: pages in the route cache (by tag, src/lib/delivery/surrogate-keys.ts) and values in the
 * data cache (by operation). `./bus.ts` sends the same to every server.
 */
export interface Invalidation {
  tenant: string;
  /** Posts by slug: their pages and every list that may show them. */
  slugs?: string[] | undefined;
  /** Post tags (topics) by slug: their pages and the lists. */
  topics?: string[] | undefined;
  /** Categories by slug whose pages list the posts (for the edge, which purges by address). */
  categories?: string[] | undefined;
  /**
   * Posts by slug whose comment threads changed (a reader's comment published at once): their
   * pages and their comment lists only, not the lists of posts.
   */
  comments?: string[] | undefined;
  /** Everything of the tenant. */
  everything?: boolean | undefined;
  /** Epoch ms when it was decided: values stored before it are out of date on every server. */
  at: number;
}

/** The operations whose values show posts: lists, a post, and the category and tag counts. */
const POST_OPERATIONS = [
  'posts.list',
  'posts.get',
  'categories.list',
  'categories.get',
  'tags.list',
  'tags.get',
];

/** Only comment threads changed: the posts' pages and comment lists, nothing that lists posts. */
export function onlyComments(invalidation: Invalidation): boolean {
  const { slugs, topics, categories, comments, everything } = invalidation;
  return !everything && !slugs && !topics && !categories && comments !== undefined;
}

/** Route cache tags (and surrogate keys) of what an invalidation drops. */
export function routeTags(invalidation: Invalidation): string[] {
  const { tenant } = invalidation;
  if (invalidation.everything) return [tenant];
  const threads = (invalidation.comments ?? []).map((slug) => `${tenant}:post:${slug}`);
  if (onlyComments(invalidation)) return threads;
  return [
    `${tenant}:posts`,
    ...(invalidation.slugs ?? []).map((slug) => `${tenant}:post:${slug}`),
    ...(invalidation.topics ?? []).map((topic) => `${tenant}:tag:${topic}`),
    ...threads,
  ];
}

/** Drops it from this server's data cache and route cache. */
export async function applyLocally(invalidation: Invalidation): Promise<void> {
  const { everything, comments } = invalidation;
  const operations = [
    ...(onlyComments(invalidation) ? [] : POST_OPERATIONS),
    // The data cache drops by operation: every comment list of the tenant is read again once.
    ...(comments ? ['comments.list'] : []),
  ];
  siteUpstream().cache.invalidate(
    {
      service: 'publishing',
      tenant: invalidation.tenant,
      operations: everything ? undefined : operations,
    },
    invalidation.at,
  );
  await invalidateRoutes(routeTags(invalidation));
}
