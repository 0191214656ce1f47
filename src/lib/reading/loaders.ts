import type { Category, Post, PostSummary } from '../publishing/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { refreshAfterOf, refusalOf, type Refusal } from '../delivery/policy.ts';
import type { Tenant } from '../tenants/schema.ts';
import { logWarn } from '../log/log.ts';
import { publishingFor } from '../services/clients.ts';
import { isStaticBuild } from '../static/mode.ts';
import type { CategoryWithPosts } from '../publishing/client.ts';
import { asSpare } from '../upstream/visitor.ts';
import { newestFirst } from './article.ts';
import { FRONT_POOL } from './front-page.ts';
import { memo } from '../memo.ts';

export const POSTS_PER_PAGE = 10;
/** Lead and secondaries: the newest featured stories. */
export const FEATURED_ON_HOME = 3;
const RELATED_COUNT = 3;
/** How recently a list must have shown a post for it to be picked as related without a read. */
const RELATED_FROM_LISTS_MS = 10 * 60_000;

/** Sorted once per list the upstream cache hands out, not on every render. */
const byPostCount = memo((categories: readonly Category[]): readonly Category[] =>
  [...categories].sort((a, b) => (b.posts_count ?? 0) - (a.posts_count ?? 0)),
);

/**
 * `read()`, or `fallback` when the upstream refuses it for now (down, busy, the budget spent),
 * told to `onRefused` (a log line): a part the page can do without.
 */
export async function unlessRefused<T, F>(
  read: () => Promise<T>,
  fallback: F,
  onRefused?: (error: unknown) => void,
): Promise<T | F> {
  try {
    return await read();
  } catch (error) {
    refusalOf(error);
    onRefused?.(error);
    return fallback;
  }
}

/** Header categories; the page still renders (without them) when the upstream is down. */
export function navigationCategories(tenant: Tenant): Promise<readonly Category[]> {
  const read = async () => byPostCount(await publishingFor(tenant).listCategories());
  return unlessRefused(read, [], () =>
    logWarn('navigation.categories.unavailable', { tenant: tenant.id }),
  );
}

/**
 * Starts the header's categories read alongside the page's own reads (`loadOrRespond`; the layout
 * asks for it only after the page's data), so a cold page waits for the slowest call, not their sum.
 */
export function warmNavigation(tenant: Tenant): void {
  void publishingFor(tenant)
    .listCategories()
    .catch(() => undefined);
}

export interface PostData {
  post: Post;
  related: PostSummary[];
  /** False when the related posts could not be read now (the page is kept briefly, not for long). */
  complete: boolean;
}

/**
 * A post and up to three related posts (same category, then the first tag, newest first). They
 * come from the posts lists showed in the last `RELATED_FROM_LISTS_MS` when those have three;
 * otherwise from two lists of their own, spare reads (`asSpare`): while the budget is short, the
 * post itself gets the calls and the page shows without them.
 */
export async function loadPost(
  tenant: Tenant,
  slug: string,
  pool?: Promise<unknown>,
): Promise<PostData> {
  const client = publishingFor(tenant);
  const post = await client.getPost(slug);
  // The front page's pool, when this page asked for it (`loadPostPage`), picks the related posts.
  await pool;
  const related: PostSummary[] = [];
  const add = (items: PostSummary[]) => {
    for (const item of items) {
      if (related.length >= RELATED_COUNT) return;
      const isArticle = item.id === post.id || item.slug === post.slug;
      if (!isArticle && !related.some((known) => known.id === item.id)) related.push(item);
    }
  };
  const firstTag = post.tags[0];
  const { category } = post;
  // What lists showed lately (the front page's pool of 50 has most posts) first: no call at all.
  // Only the matches are sorted (a stable sort: the order of filtering the sorted whole), and the
  // tag's only when the category's left room.
  const listed = client.listedPosts(RELATED_FROM_LISTS_MS);
  const addNewest = (keep: (item: PostSummary) => boolean) => {
    if (related.length < RELATED_COUNT) add(newestFirst(listed.filter(keep)));
  };
  if (category) addNewest((item) => item.category?.slug === category.slug);
  if (firstTag) addNewest((item) => item.tags.some((tag) => tag.name === firstTag.name));
  if (related.length >= RELATED_COUNT) return { post, related, complete: true };
  related.length = 0;
  try {
    // Both lists at once (one round trip); the tag's fills only what the category's leaves.
    const [byCategory, byTag] = await asSpare(() =>
      Promise.all([
        category ? client.listPosts({ category: category.slug, perPage: RELATED_COUNT + 1 }) : null,
        firstTag ? client.listPosts({ tag: firstTag.name, perPage: RELATED_COUNT + 1 }) : null,
      ]),
    );
    add(byCategory?.items ?? []);
    add(byTag?.items ?? []);
  } catch (error) {
    // Related posts are a nice-to-have: the article itself is what the visitor came for.
    refusalOf(error);
    return { post, related, complete: false };
  }
  return { post, related, complete: true };
}

/**
 * `read()`, or, when it is refused for now (the budget is spent, the upstream is down) and no copy
 * is cached, what `standIn` makes of the posts lists have shown (../publishing/known-posts.ts),
 * logged as `<what>.partial`. Fails as before when `standIn` has nothing (`undefined`).
 */
async function orStandIn<T, S>(
  tenant: Tenant,
  what: { event: string; slug: string },
  read: () => Promise<T>,
  standIn: (failure: Refusal) => S | undefined | Promise<S | undefined>,
): Promise<T | S> {
  try {
    return await read();
  } catch (error) {
    const failure = refusalOf(error);
    const answer = await standIn(failure);
    if (answer === undefined) throw error;
    logWarn(what.event, { tenant: tenant.id, slug: what.slug, failure: failure.kind });
    return answer;
  }
}

/** The newest posts lists have shown that `keep` picks, at most `count`. */
function knownNewest(
  tenant: Tenant,
  keep: (post: PostSummary) => boolean,
  count: number,
): PostSummary[] {
  return newestFirst(publishingFor(tenant).listedPosts(Infinity).filter(keep)).slice(0, count);
}

/**
 * The first page of a list cut from posts already read: `posts` of `total`; of an uncounted list
 * (`total` undefined), `more` says whether a page 2 exists.
 */
export function firstPage(
  posts: PostSummary[],
  total: number | undefined,
  more = false,
): Paged<PostSummary> {
  const counted = Math.ceil((total ?? 0) / POSTS_PER_PAGE);
  const last = total === undefined && more ? 2 : Math.max(1, counted);
  return { items: posts, page: { current: 1, last, perPage: POSTS_PER_PAGE, total } };
}

/**
 * What a post page shows: the post (`loadPost`), or, when its own read is refused for now and no
 * copy is cached, its entry from a list already read (`knownPost`): a partial article that says
 * the full story is on its way and comes back for it after `retryAfterSeconds`. A post no list
 * showed fails as before (the 503 page).
 */
export type PostPage =
  ({ partial?: undefined } & PostData) | { partial: PostSummary; retryAfterSeconds: number };

export function loadPostPage(tenant: Tenant, slug: string): Promise<PostPage> {
  const client = publishingFor(tenant);
  // No list has shown a post of this tenant yet (a cold start): the front page's pool is asked for
  // first, so while the budget is short its posts stand in, this one too (one read a tenant, shared
  // with the front page, the feed and the change watcher). A static copy has no stand-ins (every
  // post is in its snapshot), and a page rendered before the snapshot is whole must not read it.
  const pool =
    !isStaticBuild() && !client.anyListed()
      ? client.listPosts(FRONT_POOL).catch(() => undefined)
      : undefined;
  return orStandIn(
    tenant,
    { event: 'post.partial', slug },
    () => loadPost(tenant, slug, pool),
    async (failure) => {
      await pool;
      const entry = client.knownPost(slug);
      return entry && { partial: entry, retryAfterSeconds: refreshAfterOf(failure) };
    },
  );
}

/**
 * A section's page, or, when its first page cannot be read now and no copy is
 * cached, the section's newest posts among those lists have shown (the front page's pool of 50 has
 * most), with the section from the header's list: `standIn` (kept by no cache, not indexed). Fails
 * as before when lists showed none of its posts.
 */
export function loadCategoryPage(
  tenant: Tenant,
  slug: string,
  page: number,
): Promise<CategoryWithPosts & { standIn: boolean }> {
  const client = publishingFor(tenant);
  return orStandIn(
    tenant,
    { event: 'category.partial', slug },
    async () => ({
      ...(await client.getCategory(slug, { page, perPage: POSTS_PER_PAGE })),
      standIn: false,
    }),
    async () => {
      if (page !== 1) return undefined;
      const categories = await client.listCategories().catch(() => []);
      const category = categories.find((one) => one.slug === slug);
      const posts = knownNewest(tenant, (post) => post.category?.slug === slug, POSTS_PER_PAGE);
      if (!category || posts.length === 0) return undefined;
      const total = Math.max(category.posts_count ?? 0, posts.length);
      return { category, posts: firstPage(posts, total), standIn: true };
    },
  );
}

/**
 * A tag's page, or, when its first page cannot be read now and no copy is cached, the
 * newest posts lists have shown carrying the tag (list entries carry their tags), the tag as they
 * name it: `standIn` (kept by no cache, not indexed; its count is what it shows, the API's list of
 * tags has none). Fails as before when lists showed no post with the tag.
 */
export function loadTagPage(tenant: Tenant, slug: string, page: number) {
  const client = publishingFor(tenant);
  return orStandIn(
    tenant,
    { event: 'tag.partial', slug },
    async () => ({
      ...(await client.getTag(slug, { page, perPage: POSTS_PER_PAGE })),
      standIn: false,
    }),
    () => {
      if (page !== 1) return undefined;
      const named = (tag: PostSummary['tags'][number]) => (tag.slug ?? tag.name) === slug;
      const posts = knownNewest(tenant, (post) => post.tags.some(named), POSTS_PER_PAGE);
      const tag = posts[0]?.tags.find(named);
      if (!tag) return undefined;
      return {
        tag: { id: tag.id ?? slug, name: tag.name, slug },
        posts: firstPage(posts, posts.length),
        standIn: true,
      };
    },
  );
}

/** Posts in the RSS feed. */
const FEED_SIZE = 20;

export interface FeedPosts {
  posts: PostSummary[];
  /** A stand-in: when to come back for the whole feed. */
  retryAfterSeconds?: number | undefined;
}

/**
 * The feed's posts: the newest 20 of the front page's pool (one cached read shared with the front
 * page and the change watcher's look). Refused with no copy: the newest 20 posts lists have shown,
 * each as the feed would list it (same link and guid), with `retryAfterSeconds`; none known: fails.
 */
export function loadFeed(tenant: Tenant): Promise<FeedPosts> {
  return orStandIn(
    tenant,
    { event: 'feed.partial', slug: 'rss' },
    async () => ({
      posts: (await publishingFor(tenant).listPosts(FRONT_POOL)).items.slice(0, FEED_SIZE),
    }),
    (failure) => {
      const posts = knownNewest(tenant, () => true, FEED_SIZE);
      return posts.length > 0 ? { posts, retryAfterSeconds: refreshAfterOf(failure) } : undefined;
    },
  );
}

/** Full-text search; an empty query asks nothing upstream. */
export async function loadSearch(
  tenant: Tenant,
  query: string,
  page: number,
): Promise<Paged<PostSummary> | null> {
  const q = query.trim();
  if (!q) return null;
  return publishingFor(tenant).listPosts({ search: q, page, perPage: POSTS_PER_PAGE });
}
