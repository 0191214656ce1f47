import { errorMessage } from '../content/records.ts';
import { warmChangedEditions, warmChangedPosts } from '../images/prewarm.ts';
import { logInfo, logWarn } from '../log/log.ts';
import { outsideRequest } from '../log/request-context.ts';
import { observeWatcherLag } from '../observability/prometheus.ts';
import { publishingBudgetKey, publishingFor, siteUpstream } from '../services/clients.ts';
import type { PublishingClient } from '../publishing/client.ts';
import type { PostSummary } from '../publishing/schema.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { BudgetKey } from '../upstream/budget.ts';
import { RateLimitedError } from '../upstream/errors.ts';
import type { Upstream } from '../upstream/runtime.ts';
import { asBackground } from '../upstream/visitor.ts';
import { FRONT_POOL } from '../reading/front-page.ts';
import { holdLease, invalidateEverywhere, sharedMemory } from './bus.ts';
import { postChanges, seenBefore, type PostChange, type SeenPost } from './changes.ts';
import { firstLookMs, retryMs, watchIntervalMs } from './pace.ts';

/**
 * The change watcher of one tenant: every few seconds (./pace.ts) one read of the newest posts past
 * the cache, the front page's own read of its pool (`FRONT_POOL`), so the value it stores is the one
 * the front page, the feed and the sitemaps read. New, changed and vanished posts are invalidated on
 * every server (./bus.ts); with Redis one server holds each tenant's lease and watches it. Every
 * `EDITION_LOOK_EVERY` looks (and at the first) the newest editions too: one more call a look would
 * double the spending for what comes once a day; new or changed ones get their covers and first
 * pages made before readers come (images/prewarm.ts).
 */
const EDITION_LOOK_EVERY = 4;
const EDITION_WINDOW = 4;

export interface WatcherOptions {
  tenant: Tenant;
  /** Tenants whose watchers spend this budget bucket too, asked at each look (tenants come and go). */
  tenantsSharing: () => number;
  /** The site's upstream, client and budget key of the tenant unless given (tests, benches). */
  upstream?: Upstream | undefined;
  publishing?:
    | (Pick<PublishingClient, 'listPosts'> &
        Partial<Pick<PublishingClient, 'listEditions' | 'getEdition'>>)
    | undefined;
  budgetKey?: BudgetKey | undefined;
}

export interface Watcher {
  stop(): void;
}

function seenOf(items: readonly PostSummary[]): SeenPost[] {
  return items.map((post) => ({
    id: post.id,
    slug: post.slug,
    publishedAt: post.published_at ?? null,
    updatedAt: post.updated_at ?? null,
    category: post.category?.slug ?? null,
    topics: post.tags.flatMap((tag) => (tag.slug ? [tag.slug] : [])),
  }));
}

/**
 * Drops what the changes make stale everywhere, notes the lag, warms the new pictures. `readAt`:
 * when the look's read began; what was stored before it is out of date, the look's own list is not
 * (the front page reads it next without another call).
 */
async function postsChanged(
  tenant: Tenant,
  changes: PostChange[],
  listed: readonly PostSummary[],
  readAt: number,
): Promise<void> {
  const seen = changes.map((change) => change.post);
  const unique = (values: (string | null | undefined)[]) =>
    [...new Set(values)].filter((value): value is string => Boolean(value));
  await invalidateEverywhere(tenant, {
    tenant: tenant.id,
    slugs: unique(changes.map((change) => change.slug)),
    categories: unique(seen.map((post) => post.category)),
    topics: unique(seen.flatMap((post) => post.topics ?? [])),
    at: readAt,
  });
  for (const { at } of changes) {
    const time = Date.parse(at ?? '');
    if (Number.isFinite(time)) observeWatcherLag(tenant.id, (Date.now() - time) / 1000);
  }
  warmChangedPosts(tenant, listed, changes);
  logInfo('freshness.changes', {
    tenant: tenant.id,
    changes: changes.map((change) => `${change.kind} ${change.slug}`),
  });
}

export function watchTenant(options: WatcherOptions): Watcher {
  const { tenant } = options;
  const upstream = options.upstream ?? siteUpstream();
  const publishing = options.publishing ?? publishingFor(tenant);
  let previous: SeenPost[] | undefined;
  // The first look's baseline without a stored one (see `seenBefore`), allowing for clock skew.
  const startedAt = Date.now() - 10_000;
  let intervalMs = 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let editionMarks: Map<string, string> | undefined;
  let looksSinceEditions = EDITION_LOOK_EVERY;

  /** New or changed editions' pictures, every few looks, for a tenant with an e-paper. */
  const lookAtEditions = async () => {
    if (!tenant.features.epaper || !publishing.listEditions) return;
    if (++looksSinceEditions < EDITION_LOOK_EVERY) return;
    const list = await publishing.listEditions({ perPage: EDITION_WINDOW }, { fresh: true });
    looksSinceEditions = 0;
    editionMarks = warmChangedEditions(
      tenant,
      list.items,
      editionMarks,
      startedAt,
      publishing.getEdition?.bind(publishing),
    );
  };

  const pace = async () => {
    // Asked at each look: a read token added to the secrets file moves the watcher to its own bucket.
    const budgetKey = options.budgetKey ?? publishingBudgetKey(tenant);
    const { remaining } = await upstream.budget.standing(budgetKey).catch(() => ({ remaining: 0 }));
    intervalMs = watchIntervalMs({
      capacityPerMinute: upstream.budget.capacity(budgetKey.kind),
      tenantsSharing: options.tenantsSharing(),
      remaining,
      lastMs: intervalMs,
      windowMs: upstream.budget.windowSeconds * 1000,
    });
  };

  const look = async () => {
    await pace();
    // The lease outlives a few missed looks, so a busy holder keeps it.
    if (!(await holdLease(tenant.id, intervalMs * 3))) {
      previous = undefined;
      editionMarks = undefined;
      return;
    }
    const memory = await sharedMemory().catch(() => undefined);
    // Named by its window: a look of another size (an earlier release's 12) would make the older
    // posts of this one look new; and by its API: a tenant moved to another one (a reload of the
    // tenants file) would take every post of the new API for new, and the old one's for vanished.
    const window = FRONT_POOL.perPage;
    const remembered = `${tenant.id}:${window}:${tenant.publishing.baseUrl}`;
    if (!previous && memory) {
      const stored = await memory.get(remembered);
      previous = stored ? (JSON.parse(stored) as SeenPost[]) : undefined;
    }
    const readAt = Date.now();
    const list = await publishing.listPosts(FRONT_POOL, { fresh: true });
    const current = seenOf(list.items);
    const changes = postChanges(previous ?? seenBefore(current, startedAt), current, window);
    previous = current;
    await memory?.set(remembered, JSON.stringify(current));
    if (changes.length > 0) await postsChanged(tenant, changes, list.items, readAt);
    // After the posts' work, so a failed edition look never holds that up; refused by the budget
    // (readers had it), it is tried again at the next look.
    await lookAtEditions().catch((error: unknown) => {
      if (!(error instanceof RateLimitedError && error.local)) throw error;
    });
  };

  /** The next look after `delay`: the interval, or sooner when the budget refused this one (`retryMs`). */
  const schedule = (delay: number) => {
    if (stopped) return;
    // Each look outside any request and as background work, whatever context the timer carries.
    timer = setTimeout(() => {
      let next: number | undefined;
      outsideRequest(() => asBackground(look))
        .catch((error: unknown) => {
          // Readers had the budget: not a failure, the look waits its turn (metrics count it).
          if (error instanceof RateLimitedError && error.local)
            next = Math.min(intervalMs, retryMs(error.retryAfterSeconds));
          else
            logWarn('freshness.look.failed', { tenant: tenant.id, message: errorMessage(error) });
        })
        .finally(() => schedule(next ?? intervalMs));
    }, delay);
    timer.unref();
  };

  void pace()
    .catch(() => undefined)
    .finally(() => schedule(firstLookMs(intervalMs)));
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
