import { publishingClient } from '../publishing/client.ts';
import { readProfileTexts } from '../profiles/files.ts';
import { resolveProfile } from '../profiles/schema.ts';
import type { PublishingClient } from '../publishing/client.ts';
import type { Comment, Edition, Post, PostSummary } from '../publishing/schema.ts';
import type { Tenant } from '../tenants/schema.ts';
import { tenantSecrets } from '../secrets/site.ts';
import { NotFoundError } from '../upstream/errors.ts';
import type { Upstream } from '../upstream/runtime.ts';
import type { DiskCache } from './disk-cache.ts';
import type { PacingBudget } from './pacer.ts';
import type { Snapshot } from './snapshot.ts';

/** The API's largest page: every list is read 50 at a time. */
export const LIST_PAGE_SIZE = 50;

export interface FetchProgress {
  /** Upstream calls known to be needed so far (grows as lists reveal their pages). */
  planned: number;
  made: number;
  /** Answers taken from the disk cache instead. */
  reused: number;
  waitedMs: number;
}

export interface FetchOptions {
  tenant: Tenant;
  cache: DiskCache;
  /** Lists stored less than this long ago are not asked again. */
  freshMs: number;
  upstream: Upstream & { budget: PacingBudget };
  /** Requests in flight at once (the budget still decides when each may go). */
  concurrency?: number;
  onProgress?: (progress: FetchProgress) => void;
  /**
   * What is known so far, once the lists are in and after each post's detail: the build renders
   * those posts' pages early to make their pictures while it waits for the upstream.
   */
  onPartial?: (partial: Snapshot, newPosts: readonly string[]) => void;
  now?: () => number;
}

export interface FetchResult {
  snapshot: Snapshot;
  progress: FetchProgress;
}

export class StaticFetchError extends Error {
  override name = 'StaticFetchError';
}

/** Runs `tasks` with at most `limit` at once; every task runs even when others fail. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * Fetches everything a tenant's public pages show, through the real client, at the budget's pace:
 * lists 50 at a time, a post's detail and comments only when its `updated_at` differs from the
 * stored copy, lists again only when older than `freshMs`. Failures are collected; the rest is
 * stored first, then one line per failed resource is thrown.
 */
export async function fetchSnapshot(options: FetchOptions): Promise<FetchResult> {
  const { tenant, cache, freshMs, upstream } = options;
  const now = options.now ?? Date.now;
  const concurrency = options.concurrency ?? 4;
  const budget = upstream.budget;
  const startCalls = budget.calls;
  const readToken = tenantSecrets(tenant).values.publishingReadToken;
  const client: PublishingClient = publishingClient({
    tenantId: tenant.id,
    baseUrl: tenant.publishing.baseUrl,
    serviceToken: readToken,
    iframeHosts: tenant.publishing.embedHosts,
    upstream,
    // Node, not Vite: the profile files are read from disk.
    profile: resolveProfile('publishing', tenant.publishing.profile, readProfileTexts()),
  });
  const progress: FetchProgress = { planned: 0, made: 0, reused: 0, waitedMs: 0 };
  const failures: string[] = [];
  let prePlanned = 0;
  const report = () => {
    progress.made = budget.calls - startCalls;
    // Retries are calls too: the plan is never below what was made.
    progress.planned = Math.max(progress.planned, progress.made);
    progress.waitedMs = budget.waitedMs;
    options.onProgress?.({ ...progress });
  };

  /** A stored answer when `keep` accepts it, else one upstream call (stored at once). */
  const stored = async <T>(
    key: string,
    load: () => Promise<T>,
    keep: (entry: { storedAt: number; updatedAt?: string | null | undefined }) => boolean,
    updatedAt?: string | null,
  ): Promise<T> => {
    const entry = cache.get<T>(key);
    if (entry && keep(entry)) {
      progress.reused += 1;
      return entry.value;
    }
    // Details were counted up front; lists are counted as they are met.
    if (prePlanned > 0) prePlanned -= 1;
    else progress.planned += 1;
    report();
    const value = await load();
    cache.set(key, value, updatedAt);
    report();
    return value;
  };
  const fresh = (entry: { storedAt: number }) => now() - entry.storedAt < freshMs;
  const list = <T>(key: string, load: () => Promise<T>) => stored(key, load, fresh);
  const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };

  // Lists first: they say what else is needed.
  const firstPage = await attempt('/ (posts, page 1)', () =>
    list('posts.list|1', () => client.listPosts({ page: 1, perPage: LIST_PAGE_SIZE })),
  );
  const pages = new Map<number, PostSummary[]>([[1, firstPage?.items ?? []]]);
  const lastPage = firstPage?.page.last ?? 1;
  const { features } = tenant;
  const [categories, tags, plans, editions, streams] = await Promise.all([
    attempt('/categories', () => list('categories.list', () => client.listCategories())),
    attempt('/tags', () => list('tags.list', () => client.listTags())),
    attempt('/plans', () => list('plans.list', () => client.listPlans())),
    features.epaper
      ? attempt('/epaper', () => listAll('epaper.list', (page) => client.listEditions(page)))
      : [],
    features.streams
      ? attempt('/streams', () => listAll('streams.list', (page) => client.listStreams(page)))
      : [],
    pool(
      Array.from({ length: lastPage - 1 }, (_, index) => index + 2),
      concurrency,
      async (page) => {
        const paged = await attempt(`/ (posts, page ${page})`, () =>
          list(`posts.list|${page}`, () => client.listPosts({ page, perPage: LIST_PAGE_SIZE })),
        );
        pages.set(page, paged?.items ?? []);
      },
    ),
  ]);

  async function listAll<T>(
    key: string,
    load: (page: { page: number; perPage: number }) => Promise<{
      items: T[];
      page: { last: number };
    }>,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1, last = 1; page <= last; page += 1) {
      const paged = await list(`${key}|${page}`, () => load({ page, perPage: LIST_PAGE_SIZE }));
      items.push(...paged.items);
      last = paged.page.last;
    }
    return items;
  }

  // Then the details the lists lack: content and comments of new or changed posts, free editions.
  const summaries = [...pages.entries()].sort(([a], [b]) => a - b).flatMap(([, items]) => items);
  const unique = summaries.filter(
    (post, index) => summaries.findIndex((other) => other.slug === post.slug) === index,
  );
  const sameVersion =
    (summary: PostSummary) => (entry: { updatedAt?: string | null | undefined }) =>
      entry.updatedAt === (summary.updated_at ?? summary.published_at ?? null);
  // What the details will cost, known before the first one is asked (for progress and the estimate).
  const known = (
    key: string,
    keep: (entry: { updatedAt?: string | null | undefined }) => boolean,
  ) => {
    const entry = cache.get(key);
    return entry !== undefined && keep(entry);
  };
  let detailPlan = 0;
  for (const summary of unique) {
    if (!known(`posts.get|${summary.slug}`, sameVersion(summary))) detailPlan += 1;
    if (features.comments && !known(`comments.list|${summary.slug}`, sameVersion(summary)))
      detailPlan += 1;
  }
  for (const edition of editions ?? []) {
    const version = edition.published_at ?? null;
    if (
      !edition.requires_subscription &&
      !known(`epaper.get|${edition.slug}`, (e) => e.updatedAt === version)
    )
      detailPlan += 1;
  }
  progress.planned += detailPlan;
  prePlanned = detailPlan;
  report();
  const posts = new Map<string, Post>();
  const comments: Record<string, Comment[]> = {};
  const readable: Edition[] = [];
  const assemble = (): Snapshot => ({
    tenant: tenant.id,
    fetchedAt: new Date(now()).toISOString(),
    posts: unique.flatMap((summary) => posts.get(summary.slug) ?? []),
    categories: categories ?? [],
    tags: tags ?? [],
    plans: plans ?? [],
    editions: readable,
    streams: streams ?? [],
    comments,
  });
  const partial = (newPosts: readonly string[]) => options.onPartial?.(assemble(), newPosts);
  partial([]);
  await pool(unique, concurrency, async (summary) => {
    const version = summary.updated_at ?? summary.published_at ?? null;
    const path = `/posts/${summary.slug}`;
    const post = await attempt(path, () =>
      stored(
        `posts.get|${summary.slug}`,
        () => client.getPost(summary.slug),
        sameVersion(summary),
        version,
      ).catch((error: unknown) => {
        // Unpublished between the list and the detail: leave it out rather than fail the build.
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
    );
    if (!post) return;
    posts.set(summary.slug, post);
    if (!features.comments) return partial([summary.slug]);
    const thread = await attempt(`${path} (comments)`, () =>
      stored(
        `comments.list|${summary.slug}`,
        () => allComments(summary.slug),
        sameVersion(summary),
        version,
      ),
    );
    comments[summary.slug] = thread ?? [];
    partial([summary.slug]);
  });

  async function allComments(slug: string): Promise<Comment[]> {
    const thread: Comment[] = [];
    for (let page = 1, last = 1; page <= last; page += 1) {
      const paged = await client.listComments(slug, { page, perPage: LIST_PAGE_SIZE });
      thread.push(...paged.items);
      last = paged.page.last;
    }
    return thread;
  }

  await pool(editions ?? [], concurrency, async (edition) => {
    // Subscriber-only: the list's metadata is all a static copy may show (never page images).
    if (edition.requires_subscription) {
      readable.push({ ...edition, pages: [] });
      return;
    }
    const version = edition.published_at ?? null;
    const detail = await attempt(`/epaper/${edition.slug}`, () =>
      stored(
        `epaper.get|${edition.slug}`,
        () => client.getEdition(edition.slug),
        (entry) => entry.updatedAt === version,
        version,
      ),
    );
    if (detail) readable.push(detail.requires_subscription ? { ...detail, pages: [] } : detail);
  });
  const editionOrder = (editions ?? []).map((edition) => edition.slug);
  readable.sort((a, b) => editionOrder.indexOf(a.slug) - editionOrder.indexOf(b.slug));

  report();
  if (failures.length > 0) {
    throw new StaticFetchError(
      `${tenant.id}: ${failures.length} resource(s) could not be fetched (everything else is stored; run again to resume):\n${failures.map((line) => `  - ${line}`).join('\n')}`,
    );
  }
  return { snapshot: assemble(), progress };
}
