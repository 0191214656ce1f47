import type { Category, Post, PostSummary } from '../publishing/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { classify, isTemporary } from '../failures/classify.ts';
import { refreshAfterOf } from '../delivery/policy.ts';
import type { Tenant } from '../tenants/schema.ts';
import { logWarn } from '../log/log.ts';
import { publishingFor } from '../services/clients.ts';
import type { CategoryWithPosts } from '../publishing/client.ts';
import { asSpare } from '../upstream/visitor.ts';
import { newestFirst } from './article.ts';
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

/** Header categories; the page still renders (without them) when the upstream is down. */
export async function navigationCategories(tenant: Tenant): Promise<readonly Category[]> {
  try {
    return byPostCount(await publishingFor(tenant).listCategories());
  } catch (error) {
    if (!isTemporary(classify(error))) throw error;
    logWarn('navigation.categories.unavailable', { tenant: tenant.id });
    return [];
  }
}

/**
 * Starts the header's categories read alongside the page's own reads (the layout asks for it only
 * after the page's data), so a cold page waits for the slowest call, not for their sum.
 */
export function warmNavigation(tenant: Tenant): void {
  void publishingFor(tenant)
    .listCategories()
    .catch(() => undefined);
}

export interface HomeData {
  featured: PostSummary[];
  latest: Paged<PostSummary>;
}

/** Featured posts on the first page, then the latest posts (without repeating the featured ones). */
export async function loadHome(tenant: Tenant, page: number): Promise<HomeData> {
  const client = publishingFor(tenant);
  warmNavigation(tenant);
  const [featured, latest] = await Promise.all([
    page === 1 ? client.listPosts({ featured: true, perPage: FEATURED_ON_HOME }) : null,
    client.listPosts({ page, perPage: POSTS_PER_PAGE }),
  ]);
  const featuredItems = featured?.items ?? [];
  const featuredIds = new Set(featuredItems.map((post) => post.id));
  return {
    featured: featuredItems,
    latest: { ...latest, items: latest.items.filter((post) => !featuredIds.has(post.id)) },
  };
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
export async function loadPost(tenant: Tenant, slug: string): Promise<PostData> {
  const client = publishingFor(tenant);
  warmNavigation(tenant);
  const post = await client.getPost(slug);
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
  const listed = newestFirst(client.listedPosts(RELATED_FROM_LISTS_MS));
  add(category ? listed.filter((item) => item.category?.slug === category.slug) : []);
  add(firstTag ? listed.filter((item) => item.tags.some((tag) => tag.name === firstTag.name)) : []);
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
    if (!isTemporary(classify(error))) throw error;
    return { post, related, complete: false };
  }
  return { post, related, complete: true };
}

/**
 * What a post page shows: the post (`loadPost`), or, when its own read is refused for now (the
 * budget is spent, the upstream is down) and no copy is cached, its entry from a list already read
 * (`knownPost`): a partial article that says the full story is on its way and comes back for it
 * after `retryAfterSeconds`. A post no list showed fails as before (the 503 page).
 */
export type PostPage =
  ({ partial?: undefined } & PostData) | { partial: PostSummary; retryAfterSeconds: number };

export async function loadPostPage(tenant: Tenant, slug: string): Promise<PostPage> {
  try {
    return await loadPost(tenant, slug);
  } catch (error) {
    const failure = classify(error);
    if (!isTemporary(failure)) throw error;
    const entry = publishingFor(tenant).knownPost(slug);
    if (!entry) throw error;
    logWarn('post.partial', { tenant: tenant.id, slug, failure: failure.kind });
    return { partial: entry, retryAfterSeconds: refreshAfterOf(failure) };
  }
}

export function loadCategory(tenant: Tenant, slug: string, page: number) {
  warmNavigation(tenant);
  return publishingFor(tenant).getCategory(slug, { page, perPage: POSTS_PER_PAGE });
}

/**
 * A section's page (`loadCategory`), or, when its first page cannot be read now (the budget is
 * spent, the upstream is down) and no copy is cached, the section's newest posts among those lists
 * have shown (the front page's pool of 50 has most), with the section from the header's list:
 * `standIn` (kept by no cache, not indexed). Fails as before when lists showed none of its posts.
 */
export async function loadCategoryPage(
  tenant: Tenant,
  slug: string,
  page: number,
): Promise<CategoryWithPosts & { standIn: boolean }> {
  try {
    return { ...(await loadCategory(tenant, slug, page)), standIn: false };
  } catch (error) {
    if (page !== 1 || !isTemporary(classify(error))) throw error;
    const client = publishingFor(tenant);
    const category = (await client.listCategories().catch(() => [])).find(
      (one) => one.slug === slug,
    );
    const posts = newestFirst(
      client.listedPosts(Infinity).filter((post) => post.category?.slug === slug),
    ).slice(0, POSTS_PER_PAGE);
    if (!category || posts.length === 0) throw error;
    logWarn('category.partial', { tenant: tenant.id, slug });
    const total = Math.max(category.posts_count ?? 0, posts.length);
    return {
      category,
      posts: {
        items: posts,
        page: {
          current: 1,
          last: Math.max(1, Math.ceil(total / POSTS_PER_PAGE)),
          perPage: POSTS_PER_PAGE,
          total,
        },
      },
      standIn: true,
    };
  }
}

export function loadTag(tenant: Tenant, slug: string, page: number) {
  warmNavigation(tenant);
  return publishingFor(tenant).getTag(slug, { page, perPage: POSTS_PER_PAGE });
}

export function loadCategories(tenant: Tenant) {
  return publishingFor(tenant).listCategories();
}

export function loadTags(tenant: Tenant) {
  warmNavigation(tenant);
  return publishingFor(tenant).listTags();
}

/** Full-text search; an empty query asks nothing upstream. */
export async function loadSearch(
  tenant: Tenant,
  query: string,
  page: number,
): Promise<Paged<PostSummary> | null> {
  const q = query.trim();
  if (!q) return null;
  warmNavigation(tenant);
  return publishingFor(tenant).listPosts({ search: q, page, perPage: POSTS_PER_PAGE });
}

export function loadPlans(tenant: Tenant) {
  warmNavigation(tenant);
  return publishingFor(tenant).listPlans();
}

export function loadPlan(tenant: Tenant, slug: string) {
  warmNavigation(tenant);
  return publishingFor(tenant).getPlan(slug);
}
