import { EDITIONS_PER_PAGE } from '../epaper/load.ts';
import { logWarn } from '../log/log.ts';
import { settings } from '../settings/settings.ts';
import { isStaticBuild } from '../static/mode.ts';
import type { Category, Edition, PostSummary, Stream } from '../publishing/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { memo } from '../memo.ts';
import { fragmentKey } from '../render/fragments.ts';
import { streamCacheLife } from '../streams/cache-life.ts';
import { STREAMS_PER_PAGE, streamList } from '../streams/loaders.ts';
import type { Tenant } from '../tenants/schema.ts';
import { frontPage } from './article.ts';
import { publishingFor } from '../services/clients.ts';
import {
  FRONT_POOL,
  distinctBlocks,
  frontPageStories,
  frontSections,
  liveBand,
  needsTopUp,
  promotedEdition,
  topUp,
  type LiveBand,
  type SectionBlock,
} from './front-page.ts';
import {
  FEATURED_ON_HOME,
  POSTS_PER_PAGE,
  firstPage,
  navigationCategories,
  unlessRefused,
} from './loaders.ts';

/**
 * The front page's route-cache rule: its live band shows a stream's change within
 * `streamChangeShownWithin(FRONT_PAGE_CACHE_SECONDS)`, and never outlives a scheduled start
 * (src/lib/streams/cache-life.ts); without its featured list (the budget was short) it is kept
 * 30 s at most, then completed.
 */
export function frontPageCache(
  page: Pick<FrontPageData, 'streams' | 'complete'>,
  now = Date.now(),
) {
  const rule = { maxAge: settings().FRONT_PAGE_CACHE_SECONDS, swr: 600 };
  const life = streamCacheLife(rule, page.streams, now);
  return page.complete ? life : { ...life, maxAge: Math.min(life.maxAge, 30) };
}

export interface FrontPageData {
  latest: Paged<PostSummary>;
  /** The stories in their three tiers (`frontPage` of the featured ones and `latest`). */
  tiers: ReturnType<typeof frontPage<PostSummary>>;
  sections: SectionBlock[];
  band: LiveBand | null;
  /** The streams the band was chosen from: the page's cache life ends at their next start. */
  streams: Stream[];
  edition: Edition | null;
  /** False when the featured list could not be read now (the page is kept briefly, not for long). */
  complete: boolean;
}

/** A part of the page the reader can do without: an outage leaves it out instead of failing the page. */
const optional = <T>(tenant: Tenant, part: string, read: () => Promise<T>) =>
  unlessRefused(read, null, () => logWarn('front.part.unavailable', { tenant: tenant.id, part }));

type Inputs = [tenant: Tenant, featured: PostSummary[], categories: readonly Category[]];

/**
 * The stories below the featured ones. `settled`: the section blocks, unless one needs a category
 * read of its own (`needsTopUp`).
 */
function compose(pool: Paged<PostSummary>, ...[tenant, featured, categories]: Inputs) {
  const sections = frontSections(tenant.frontPage.sections, categories);
  const { list, blocks, shown } = frontPageStories(featured, pool.items, sections, POSTS_PER_PAGE);
  const settled = blocks.some(needsTopUp) ? null : distinctBlocks(blocks, shown);
  // The list's first page, cut from the pool: the same ten stories `/page/1` would read.
  const more = pool.page.last > 1 || pool.items.length > POSTS_PER_PAGE;
  const latest = firstPage(list, pool.page.total, more);
  return { latest, tiers: frontPage(featured, list), blocks, shown, settled };
}

// Worked out once per pool, tenant, featured list and categories (objects by identity: the upstream
// cache hands every render the same ones until it reads them again), not on every render.
const composed = memo((pool: Paged<PostSummary>) =>
  memo((_key: string, ...inputs: Inputs) => compose(pool, ...inputs), { max: 4 }),
);

const promoted = memo((editions: readonly Edition[]) => promotedEdition(editions));

/** A later page of the front page: older stories, in the list only. */
async function olderStories(tenant: Tenant, page: number): Promise<FrontPageData> {
  const latest = await publishingFor(tenant).listPosts({ page, perPage: POSTS_PER_PAGE });
  const tiers = frontPage([], latest.items);
  return { latest, tiers, sections: [], band: null, streams: [], edition: null, complete: true };
}

/**
 * A page of the front page; the first with all reads in parallel. A cold page costs 5 upstream calls
 * (featured, the newest 50, categories, streams, editions; 3 without streams and e-paper), each
 * the same read as the sitemap's, the header's, /streams' and /epaper's first pages, so they share
 * cache entries; plus one category read for a block the newest 50 cannot fill.
 */
export async function loadFrontPage(
  tenant: Tenant,
  page = 1,
  now = new Date(),
): Promise<FrontPageData> {
  if (page > 1) return olderStories(tenant, page);
  const client = publishingFor(tenant);
  const { features } = tenant;
  // The newest 50 first: while the budget has one call left, it goes to the one read the page
  // cannot do without.
  const [pool, featuredList, categories, streams, editions] = await Promise.all([
    client.listPosts(FRONT_POOL),
    optional(tenant, 'featured', () =>
      client.listPosts({ featured: true, perPage: FEATURED_ON_HOME }),
    ),
    navigationCategories(tenant),
    features.streams
      ? optional(tenant, 'streams', () =>
          streamList(tenant, { page: 1, perPage: STREAMS_PER_PAGE }, now.getTime()),
        )
      : null,
    features.epaper
      ? optional(tenant, 'epaper', () =>
          client.listEditions({ page: 1, perPage: EDITIONS_PER_PAGE }),
        )
      : null,
  ]);
  // Not read now: the featured stories among the newest 50 (where the API marks them) stand in,
  // and the page is kept only briefly.
  const featured =
    featuredList?.items ?? pool.items.filter((post) => post.is_featured).slice(0, FEATURED_ON_HOME);
  const inputs: Inputs = [tenant, featured, categories];
  const { latest, tiers, blocks, shown, settled } = composed(pool)(fragmentKey(inputs), ...inputs);
  const sections =
    settled ??
    distinctBlocks(
      await Promise.all(
        blocks.map(async (block) => {
          if (!needsTopUp(block)) return block;
          const own = await optional(tenant, 'section', () =>
            client.getCategory(block.category.slug, { page: 1, perPage: POSTS_PER_PAGE }),
          );
          return own ? topUp(block, own.posts.items, shown) : block;
        }),
      ),
      shown,
    );
  return {
    latest,
    tiers,
    sections,
    // A static copy is read long after its build: it names no stream as live now or starting today.
    band: streams && !isStaticBuild() ? liveBand(streams.items, now, tenant.timeZone) : null,
    streams: streams?.items ?? [],
    edition: editions ? promoted(editions.items) : null,
    complete: featuredList !== null,
  };
}
