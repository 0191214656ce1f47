import PQueue from 'p-queue';
import { LRUCache } from 'lru-cache';
import { logError } from '../log/log.ts';
import { readablePages } from '../epaper/reader.ts';
import type { Edition, PostSummary } from '../publishing/schema.ts';
import type { PostChange } from '../freshness/changes.ts';
import type { Tenant } from '../tenants/schema.ts';
import { outsideRequest } from '../log/request-context.ts';
import { settings } from '../settings/settings.ts';
import { publishingFor } from '../services/clients.ts';
import { isStaticBuild } from '../static/mode.ts';
import { asBackground } from '../upstream/visitor.ts';
import { ImageError } from './errors.ts';
import { srcsetWidths, type ImageFormat, type ImageWidth } from './ladder.ts';
import { ARTICLE_COVER, EDITION_LIST } from './layouts.ts';
import { derivedKey } from './pipeline.ts';
import { PRIORITY } from './queue.ts';
import { imagePipeline } from './shared-pipeline.ts';
import { sourceAllowed } from './sources.ts';

/**
 * Pictures made before the first reader comes: a new post's lead picture, a new edition's cover and
 * first pages, in AVIF at the widths most first views ask for, and the 1200 px JPEG of link previews.
 * Warming waits behind every reader's picture and takes one transform slot at most, so readers keep
 * the CPU. Off with `IMAGE_WARM=false` or `WATCH_CHANGES=false`, and in static builds.
 */
type WarmPicture = { source: string; width: ImageWidth; format: ImageFormat };

/** A post's cover above the article and in the lead card (phones: 800 and 1200 px). */
const LEAD_WIDTHS: ImageWidth[] = [800, 1200];
/** An edition's cover in the list: a phone's single column and a desktop's column at 2×. */
const COVER_WIDTHS: ImageWidth[] = [640, 800];
/** The first pages a reader opens (a phone's page; a desktop's spread is pages 1–2 or 2–3). */
const FIRST_PAGES = 3;
const PAGE_WIDTHS: ImageWidth[] = [800, 1200];
/** The thumbnails of the strip's first screen. */
const FIRST_THUMBNAILS = 8;
/** Editions of a list whose covers are warmed: the first row of a desktop's grid. */
const FIRST_ROW = 4;
/** Posts warmed after a purge of everything: the watcher's window. */
const PURGE_NEWEST = 12;
/** Pictures waiting to be warmed at most (a burst of publishing beyond it is made by readers). */
const WAITING_MAX = 500;

/** Widths of `wanted` a layout's `srcset` lists for a source `sourceWidth` wide. */
function listed(wanted: ImageWidth[], maxDisplay: number, sourceWidth?: number | null) {
  const widths = srcsetWidths(maxDisplay, sourceWidth);
  return wanted.filter((width) => widths.includes(width));
}

const avif = (source: string, widths: ImageWidth[]): WarmPicture[] =>
  widths.map((width) => ({ source, width, format: 'avif' }));

/** The pictures to make for a post's first readers. */
export function postPictures(post: PostSummary): WarmPicture[] {
  const source = post.cover_image_url;
  if (!source) return [];
  const widths = listed(LEAD_WIDTHS, ARTICLE_COVER.maxWidth, post.cover_image_width);
  return [...avif(source, widths), { source, width: 1200, format: 'jpeg' }];
}

/** The pictures to make for an edition's first readers (public pages only: a free edition's). */
export function editionPictures(edition: Edition): WarmPicture[] {
  const cover = edition.cover_image_url;
  const covers = cover ? avif(cover, listed(COVER_WIDTHS, EDITION_LIST.maxWidth)) : [];
  if (edition.requires_subscription) return covers;
  const pages = readablePages(edition);
  return [
    ...covers,
    ...pages.slice(0, FIRST_PAGES).flatMap((page) => avif(page.image_url, PAGE_WIDTHS)),
    ...pages
      .slice(0, FIRST_THUMBNAILS)
      .map((page): WarmPicture => ({ source: page.image_url, width: 160, format: 'webp' })),
  ];
}

/** One warming at a time: the other transform slots stay the readers'. */
const warming = new PQueue({ concurrency: 1 });
/** Pictures asked for lately, so a list seen again does not queue them again. */
const asked = new LRUCache<string, true>({ max: 10_000 });

/** Part of watching for changes: off with it too. */
const warmingOn = () => {
  const { IMAGE_WARM, WATCH_CHANGES } = settings();
  return IMAGE_WARM && WATCH_CHANGES && !isStaticBuild();
};

/** Queues `pictures` of `tenant` (from hosts it may use, not asked for lately) to be made. */
export function warmPictures(tenant: Tenant, pictures: WarmPicture[]): void {
  if (!warmingOn()) return;
  for (const picture of pictures) {
    if (!sourceAllowed(tenant, picture.source)) continue;
    const key = `${tenant.id}\0${derivedKey(picture)}`;
    if (asked.has(key) || warming.size >= WAITING_MAX) continue;
    asked.set(key, true);
    void warming.add(async () => {
      try {
        await imagePipeline().derive({
          ...picture,
          allowed: (url) => sourceAllowed(tenant, url),
          priority: PRIORITY.warm,
        });
      } catch (error) {
        asked.delete(key);
        // A source missing, refused or away is the reader's 404, 422 or 502 later; the rest is ours.
        if (error instanceof ImageError) return;
        logError('images.warm.failed', { tenant: tenant.id, source: picture.source }, error);
      }
    });
  }
}

/** Resolves once every picture queued so far is made (or failed): tests, benches. */
export function warmingSettled(): Promise<void> {
  return warming.onIdle();
}

/** New and changed posts' lead pictures, before readers come. */
export function warmPosts(tenant: Tenant, posts: readonly PostSummary[]): void {
  warmPictures(tenant, posts.flatMap(postPictures));
}

/** The change watcher's hook: of the posts it listed, those new or changed since its last look. */
export function warmChangedPosts(
  tenant: Tenant,
  listed: readonly PostSummary[],
  changes: readonly Pick<PostChange, 'kind' | 'slug'>[],
): void {
  const fresh = new Set(changes.flatMap((c) => (c.kind === 'vanished' ? [] : [c.slug])));
  warmPosts(
    tenant,
    listed.filter((post) => fresh.has(post.slug)),
  );
}

/** Editions whose pages were looked up for warming lately. */
const editionsSeen = new LRUCache<string, true>({ max: 1_000 });

/** How long an edition list's warming waits: the page that listed the editions goes first. */
const AFTER_PAGE_MS = 2_000;

type ReadEdition = (slug: string) => Promise<Edition>;

/**
 * An edition's cover now and, for a free one not looked up lately, its first pages, which lists do
 * not carry: the edition is read once, at background priority (its first reader needs it too).
 */
function warmEdition(tenant: Tenant, edition: Edition, read?: ReadEdition): void {
  warmPictures(tenant, editionPictures(edition));
  const key = `${tenant.id}\0${edition.slug}\0${editionMark(edition)}`;
  if (edition.requires_subscription || editionsSeen.has(key)) return;
  editionsSeen.set(key, true);
  const get = read ?? ((slug: string) => publishingFor(tenant).getEdition(slug));
  void outsideRequest(() => asBackground(() => get(edition.slug)))
    .then((full) => warmPictures(tenant, editionPictures(full)))
    .catch(() => editionsSeen.delete(key));
}

/** The e-paper list's hook: its first row's covers and the newest edition's first pages. */
export function warmEditions(tenant: Tenant, editions: readonly Edition[]): void {
  if (!warmingOn()) return;
  const warm = () => {
    warmPictures(tenant, editions.slice(0, FIRST_ROW).flatMap(editionPictures));
    const newest = editions[0];
    if (newest) warmEdition(tenant, newest);
  };
  setTimeout(() => outsideRequest(warm), AFTER_PAGE_MS).unref();
}

/** What the change watcher remembers of an edition: a new cover, date or page count is a change. */
export const editionMark = (edition: Edition) =>
  `${edition.published_at ?? ''}\0${edition.cover_image_url ?? ''}\0${edition.page_count ?? ''}`;

/**
 * The change watcher's hook for editions: those listed whose mark changed since `previous` (without
 * one: published since `since`) are warmed. Returns the marks for the next look.
 */
export function warmChangedEditions(
  tenant: Tenant,
  listed: readonly Edition[],
  previous: ReadonlyMap<string, string> | undefined,
  since: number,
  read?: ReadEdition,
): Map<string, string> {
  const marks = new Map(listed.map((edition) => [edition.slug, editionMark(edition)]));
  for (const edition of listed) {
    const fresh = previous
      ? previous.get(edition.slug) !== marks.get(edition.slug)
      : Date.parse(edition.published_at ?? '') >= since;
    if (fresh && warmingOn()) warmEdition(tenant, edition, read);
  }
  return marks;
}

/**
 * `POST /_purge`'s hook: a purged post's lead picture (its cover may be new), or after "everything"
 * the newest posts' and the newest edition's, read at background priority.
 */
export function warmAfterPurge(
  tenant: Tenant,
  purged: { slug?: string; everything?: true } | { tag: string },
): void {
  if (!warmingOn() || 'tag' in purged) return;
  const publishing = publishingFor(tenant);
  const posts = () =>
    purged.slug !== undefined
      ? publishing.getPost(purged.slug).then((post) => [post])
      : publishing.listPosts({ perPage: PURGE_NEWEST }).then((list) => list.items);
  void outsideRequest(() => asBackground(posts))
    .then((found) => warmPosts(tenant, found))
    .catch(() => undefined);
  if (!purged.everything || !tenant.features.epaper) return;
  void outsideRequest(() =>
    asBackground(() => publishing.listEditions({ perPage: 1 }, { fresh: true })),
  )
    .then((list) => list.items[0] && warmEdition(tenant, list.items[0]))
    .catch(() => undefined);
}
