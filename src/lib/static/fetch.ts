import PQueue from 'p-queue';
import { publishingClient, type PublishingClient } from '../publishing/client.ts';
import { readProfileTexts } from '../profiles/files.ts';
import { resolveProfile } from '../profiles/schema.ts';
import type { Comment, Edition, Post, PostSummary } from '../publishing/schema.ts';
import type { Tenant } from '../tenants/schema.ts';
import { tenantSecrets } from '../secrets/site.ts';
import { apiHash } from '../upstream/cache.ts';
import { NotFoundError } from '../upstream/errors.ts';
import { errorMessage } from '../content/records.ts';
import type { PageParams, Paged } from '../upstream/parse.ts';
import type { Upstream } from '../upstream/runtime.ts';
import type { DiskCache } from './disk-cache.ts';
import type { PacingBudget } from './pacer.ts';
import type { Snapshot } from './snapshot.ts';
import { editionPath, postPath } from '../reading/paths.ts';

/** The API's largest page: every list is read 50 at a time. */
const LIST_PAGE_SIZE = 50;
/** Requests in flight at once (the budget still decides when each may go). */
const CONCURRENCY = 4;

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
  onProgress?: (progress: FetchProgress) => void;
  /** The snapshot so far and the site paths it adds, after the lists and after each detail. */
  onPartial?: (partial: Snapshot, newPaths: readonly string[]) => void;
}

/** Why a static build cannot finish (what failed to fetch, the renderer, the search index). */
export class StaticBuildError extends Error {
  override name = 'StaticBuildError';
}

/** Runs `task` on every item (each, even when another fails), at most `limit` at once. */
const pool = <T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>) =>
  new PQueue({ concurrency: limit }).addAll(items.map((item) => () => task(item)));

/**
 * Every page of a list, 50 at a time. With `concurrency` and a count, the rest side by side;
 * without a count (`simplePaginate`), one after another, each page naming the next.
 */
async function allPages<T>(load: (page: PageParams) => Promise<Paged<T>>, concurrency = 1) {
  const read = (page: number) => load({ page, perPage: LIST_PAGE_SIZE });
  const first = await read(1);
  const pages = [first.items];
  if (concurrency > 1 && first.page.total !== undefined) {
    const rest = Array.from({ length: first.page.last - 1 }, (_, index) => index + 2);
    await pool(rest, concurrency, async (page) => {
      pages[page - 1] = (await read(page)).items;
    });
  }
  for (let page = pages.length + 1, last = first.page.last; page <= last; page += 1) {
    const paged = await read(page);
    pages.push(paged.items);
    last = paged.page.last;
  }
  return pages.flat();
}

type Lists = Awaited<ReturnType<SnapshotFetch['fetchLists']>>;

/** One run of `fetchSnapshot`: the client, what was stored, the progress and the failures. */
class SnapshotFetch {
  readonly options: FetchOptions;
  readonly startCalls: number;
  readonly client: PublishingClient;
  readonly progress: FetchProgress = { planned: 0, made: 0, reused: 0, waitedMs: 0 };
  readonly failures: string[] = [];
  readonly posts = new Map<string, Post>();
  readonly comments: Record<string, Comment[]> = {};
  readonly editions = new Map<string, Edition>();

  constructor(options: FetchOptions) {
    const { tenant, upstream } = options;
    this.options = options;
    this.startCalls = upstream.budget.calls;
    this.client = publishingClient({
      tenantId: tenant.id,
      baseUrl: tenant.publishing.baseUrl,
      serviceToken: tenantSecrets(tenant).values.publishingReadToken,
      iframeHosts: tenant.publishing.embedHosts,
      upstream,
      // Node, not Vite: the profile files are read from disk.
      profile: resolveProfile('publishing', tenant.publishing.profile, readProfileTexts()),
    });
  }

  report(): void {
    const { budget } = this.options.upstream;
    const { progress } = this;
    progress.made = budget.calls - this.startCalls;
    // Retries are calls too: the plan is never below what was made.
    progress.planned = Math.max(progress.planned, progress.made);
    progress.waitedMs = budget.waitedMs;
    this.options.onProgress?.({ ...progress });
  }

  /** Answers are stored per API: a tenant moved to another one since the last build starts anew. */
  key(name: string): string {
    return `${apiHash(this.options.tenant.publishing.baseUrl)}|${name}`;
  }

  /** The stored answer still good: a list younger than `freshMs`, a detail of the `version` listed. */
  kept<T>(name: string, version?: string | null) {
    const entry = this.options.cache.get<T>(this.key(name));
    const good =
      version === undefined
        ? entry && Date.now() - entry.storedAt < this.options.freshMs
        : entry?.updatedAt === version;
    return good ? entry : undefined;
  }

  /** A kept answer (a list, or with `version` a post's or edition's detail), else one upstream call. */
  async stored<T>(name: string, load: () => Promise<T>, version?: string | null): Promise<T> {
    const entry = this.kept<T>(name, version);
    if (entry) {
      this.progress.reused += 1;
      return entry.value;
    }
    // Details were counted up front (`planDetails`); lists are counted as they are met.
    if (version === undefined) this.progress.planned += 1;
    this.report();
    const value = await load();
    this.options.cache.set(this.key(name), value, version);
    this.report();
    return value;
  }

  async attempt<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      this.failures.push(`${what}: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** Every page of a list, each stored. */
  listAll<T>(name: string, load: (page: PageParams) => Promise<Paged<T>>, concurrency?: number) {
    return allPages((page) => this.stored(`${name}|${page.page}`, () => load(page)), concurrency);
  }

  /** Lists first: they say what else is needed. The posts come once each, newest first. */
  async fetchLists() {
    const { client } = this;
    const { features } = this.options.tenant;
    const [categories, tags, plans, editions, streams, posts] = await Promise.all([
      this.attempt('/categories', () => this.stored('categories.list', client.listCategories)),
      this.attempt('/tags', () => this.stored('tags.list', client.listTags)),
      this.attempt('/plans', () => this.stored('plans.list', client.listPlans)),
      features.epaper
        ? this.attempt('/epaper', () => this.listAll('epaper.list', client.listEditions))
        : [],
      features.streams
        ? this.attempt('/streams', () => this.listAll('streams.list', client.listStreams))
        : [],
      this.attempt('/ (posts)', () =>
        this.listAll('posts.list', (page) => client.listPosts(page), CONCURRENCY),
      ),
    ]);
    const all = posts ?? [];
    const summaries = all.filter(
      (post, index) => all.findIndex((other) => other.slug === post.slug) === index,
    );
    return { summaries, categories, tags, plans, editions, streams };
  }

  /** What the details will cost, known before the first one is asked (for progress and the estimate). */
  planDetails({ summaries, editions }: Lists): void {
    const { comments } = this.options.tenant.features;
    const { progress } = this;
    const missing = (name: string, version: string | null) => (this.kept(name, version) ? 0 : 1);
    for (const summary of summaries) {
      const version = versionOf(summary);
      progress.planned += missing(`posts.get|${summary.slug}`, version);
      if (comments) progress.planned += missing(`comments.list|${summary.slug}`, version);
    }
    for (const { slug, published_at, requires_subscription } of editions ?? []) {
      if (!requires_subscription)
        progress.planned += missing(`epaper.get|${slug}`, published_at ?? null);
    }
    this.report();
  }

  /** The snapshot so far; `early` while details still arrive (lists answer from `listed`). */
  assemble(lists: Lists, early = false): Snapshot {
    return {
      ...(early && { listed: lists.summaries }),
      tenant: this.options.tenant.id,
      fetchedAt: new Date().toISOString(),
      posts: lists.summaries.flatMap((summary) => this.posts.get(summary.slug) ?? []),
      categories: lists.categories ?? [],
      tags: lists.tags ?? [],
      plans: lists.plans ?? [],
      editions: (lists.editions ?? []).flatMap((edition) => this.editions.get(edition.slug) ?? []),
      streams: lists.streams ?? [],
      comments: this.comments,
    };
  }

  /** A post's content and comments when new or changed; `partial` tells the build of each. */
  async fetchPost(summary: PostSummary, partial: (newPaths: readonly string[]) => void) {
    const version = versionOf(summary);
    const path = postPath(summary.slug);
    const post = await this.attempt(path, () =>
      this.stored(
        `posts.get|${summary.slug}`,
        () => this.client.getPost(summary.slug),
        version,
      ).catch((error: unknown) => {
        // Unpublished between the list and the detail: leave it out rather than fail the build.
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
    );
    if (!post) return;
    this.posts.set(summary.slug, post);
    if (!this.options.tenant.features.comments) return partial([path]);
    const thread = await this.attempt(`${path} (comments)`, () =>
      this.stored(
        `comments.list|${summary.slug}`,
        () => allPages((page) => this.client.listComments(summary.slug, page)),
        version,
      ),
    );
    this.comments[summary.slug] = thread ?? [];
    partial([path]);
  }

  /** A free edition's pages; a subscriber-only one keeps the list's metadata (never page images). */
  async fetchEdition(edition: Edition, partial: (newPaths: readonly string[]) => void) {
    const path = editionPath(edition.slug);
    const detail = edition.requires_subscription
      ? edition
      : await this.attempt(path, () =>
          this.stored(
            `epaper.get|${edition.slug}`,
            () => this.client.getEdition(edition.slug),
            edition.published_at ?? null,
          ),
        );
    if (!detail) return;
    this.editions.set(
      edition.slug,
      detail.requires_subscription ? { ...detail, pages: [] } : detail,
    );
    partial([path]);
  }
}

/** The version of a post its list shows: a stored detail or thread of another is asked again. */
const versionOf = (summary: PostSummary) => summary.updated_at ?? summary.published_at ?? null;

/**
 * Fetches everything a tenant's public pages show, through the real client, at the budget's pace:
 * lists 50 at a time, a post's detail and comments only when its `updated_at` differs from the
 * stored copy, lists again only when older than `freshMs`. Failures are collected; the rest is
 * stored first, then one line per failed resource is thrown.
 */
export async function fetchSnapshot(options: FetchOptions) {
  const run = new SnapshotFetch(options);
  const lists = await run.fetchLists();
  // Then the details the lists lack: content and comments of new or changed posts, free editions.
  run.planDetails(lists);
  const partial = (newPaths: readonly string[]) =>
    options.onPartial?.(run.assemble(lists, true), newPaths);
  partial([]);
  const editions = lists.editions ?? [];
  // Side by side: editions are read anonymously, on a budget of their own.
  await Promise.all([
    pool(lists.summaries, CONCURRENCY, (summary) => run.fetchPost(summary, partial)),
    pool(editions, CONCURRENCY, (edition) => run.fetchEdition(edition, partial)),
  ]);
  run.report();
  const { failures } = run;
  if (failures.length > 0) {
    throw new StaticBuildError(
      `${options.tenant.id}: ${failures.length} resource(s) could not be fetched (everything else is stored; run again to resume):\n${failures.map((line) => `  - ${line}`).join('\n')}`,
    );
  }
  return { snapshot: run.assemble(lists), progress: run.progress };
}
