/**
 * The newspaper front page beyond the lead story: which section blocks it shows and with which
 * stories, and what the "live now" band says. Pure functions; `loadFrontPage` gathers the data.
 */
import type { KeyPart } from '../render/fragments.ts';
import { dateTimeFormat } from '../i18n/intl-cache.ts';
import { isoDateInZone, readDate } from '../i18n/format.ts';
import type { Category, Edition, PostSummary, Stream } from '../publishing/schema.ts';
import { streamStatus } from '../streams/status.ts';
import type { Tenant } from '../tenants/schema.ts';

/** Section blocks without configuration: the largest categories (the header's first ones). */
const DEFAULT_FRONT_SECTIONS = 4;
/** Stories per block: the first with its picture, the others as headlines. */
export const SECTION_POSTS = 4;
/**
 * The newest stories read at once for the list and every section block (the API's page maximum).
 * The change watcher's look is this same read (src/lib/freshness/watcher.ts), so they share one
 * cached value, and every post in it is known to the post and section stand-ins from the first look.
 */
export const FRONT_POOL = { page: 1, perPage: 50 } as const;

export interface SectionBlock {
  category: Category;
  posts: PostSummary[];
}

/**
 * The categories that get a block, in order: the tenant's `frontPage.sections` (slugs the API does
 * not know are skipped), else the first {@link DEFAULT_FRONT_SECTIONS} of `categories` (largest first).
 */
export function frontSections(
  configured: readonly string[] | undefined,
  categories: readonly Category[],
): Category[] {
  if (!configured) return categories.slice(0, DEFAULT_FRONT_SECTIONS);
  const bySlug = new Map(categories.map((category) => [category.slug, category]));
  return configured.flatMap((slug) => bySlug.get(slug) ?? []);
}

/**
 * Each section's latest stories from a newest-first pool, leaving out the stories already shown
 * above (the lead and secondaries). A story appears in one block at most.
 */
export function sectionBlocks(
  sections: readonly Category[],
  pool: readonly PostSummary[],
  shown: ReadonlySet<PostSummary['id']>,
): SectionBlock[] {
  const used = new Set(shown);
  return sections.map((category) => {
    const posts = pool
      .filter((post) => post.category?.slug === category.slug && !used.has(post.id))
      .slice(0, SECTION_POSTS);
    for (const post of posts) used.add(post.id);
    return { category, posts };
  });
}

/** The stories below the lead: the "More news" list and the section blocks, each story once. */
export interface FrontPageStories {
  list: PostSummary[];
  blocks: SectionBlock[];
  /** Every story shown so far (featured and list): what a block's top-up must leave out. */
  shown: Set<PostSummary['id']>;
}

/**
 * Composes the front page below its featured stories from a newest-first pool: the list is the
 * newest `listSize` stories that are not featured, the section blocks take from what is left. A
 * story appears once per front page (the list and a block used to share the newest ones).
 */
export function frontPageStories(
  featured: readonly PostSummary[],
  pool: readonly PostSummary[],
  sections: readonly Category[],
  listSize: number,
): FrontPageStories {
  const featuredIds = new Set(featured.map((post) => post.id));
  const list = pool.slice(0, listSize).filter((post) => !featuredIds.has(post.id));
  const shown = new Set([...featuredIds, ...list.map((post) => post.id)]);
  return { list, blocks: sectionBlocks(sections, pool, shown), shown };
}

/**
 * The blocks with every story shown above or in an earlier block left out (after top-ups, whose
 * category reads may bring back a story the list or another block has), empty blocks dropped.
 */
export function distinctBlocks(
  blocks: readonly SectionBlock[],
  shown: ReadonlySet<PostSummary['id']>,
): SectionBlock[] {
  const used = new Set(shown);
  return blocks.flatMap((block) => {
    const posts = block.posts.filter((post) => !used.has(post.id));
    for (const post of posts) used.add(post.id);
    return posts.length > 0 ? [{ ...block, posts }] : [];
  });
}

/** A block the pool could not fill although its category has more stories: read the category. */
export function needsTopUp({ category, posts }: SectionBlock): boolean {
  return posts.length < SECTION_POSTS && (category.posts_count ?? Infinity) > posts.length;
}

/** Adds a category's own newest stories to its block (after those it has), up to the block size. */
export function topUp(
  block: SectionBlock,
  latest: readonly PostSummary[],
  shown: ReadonlySet<PostSummary['id']>,
): SectionBlock {
  const ids = new Set([...shown, ...block.posts.map((post) => post.id)]);
  const extra = latest.filter((post) => !ids.has(post.id));
  return { ...block, posts: [...block.posts, ...extra].slice(0, SECTION_POSTS) };
}

export type LiveBand =
  { kind: 'live'; streams: Stream[] } | { kind: 'today'; stream: Stream; startsAt: string };

/** What a rendered band shows (src/lib/render/fragments.ts): its streams by identity and its time. */
export function liveBandParts(band: LiveBand | null): KeyPart[] {
  if (!band) return [null];
  return band.kind === 'live' ? ['live', ...band.streams] : ['today', band.stream, band.startsAt];
}

/** At most this many live streams named in the band. */
const LIVE_IN_BAND = 2;

/**
 * The band above the lead story: the streams live now; else the next stream scheduled later today
 * (in the tenant's time zone) with its start; else nothing.
 */
export function liveBand(
  streams: readonly Stream[],
  now: Date,
  timeZone: Tenant['timeZone'],
): LiveBand | null {
  const live = streams.filter((stream) => streamStatus(stream) === 'live');
  if (live.length > 0) return { kind: 'live', streams: live.slice(0, LIVE_IN_BAND) };
  const ahead = streams
    .filter((stream) => streamStatus(stream) === 'scheduled' && stream.scheduled_at)
    // Read as every date of the site is: a time without an offset is UTC, not the server's zone.
    .flatMap((stream) => {
      const at = readDate(stream.scheduled_at)?.date;
      return at && at >= now ? [{ stream, at }] : [];
    });
  // The day in the tenant's zone (a dear Intl call) only when a stream is still to come.
  if (ahead.length === 0) return null;
  const today = isoDateInZone(now, timeZone);
  const next = ahead
    .filter(({ at }) => isoDateInZone(at, timeZone) === today)
    .sort((a, b) => a.at.getTime() - b.at.getTime())[0];
  return next ? { kind: 'today', stream: next.stream, startsAt: next.at.toISOString() } : null;
}

/** The edition the front page promotes: the newest one with a cover (none: no promo). */
export function promotedEdition(editions: readonly Edition[]): Edition | null {
  const covered = editions.filter((edition) => edition.cover_image_url);
  return (
    covered.sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? ''))[0] ?? null
  );
}

/** `6:00 PM EST` / `18:00 MEZ`: a start time on the tenant's clock, with the zone's name. */
export function clockTime(iso: string, tenant: Pick<Tenant, 'locale' | 'timeZone'>): string {
  return dateTimeFormat(tenant.locale, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: tenant.timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));
}
