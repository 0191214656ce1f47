import type { PostSummary } from '../publishing/schema.ts';
import { isoDateInZone, readDate } from '../i18n/format.ts';

/** Words a reader gets through in a minute (news prose, on screen). */
const WORDS_PER_MINUTE = 220;

/** Minutes to read an article's HTML, at least 1. */
export function readingMinutes(html: string): number {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[#\w]+;/g, ' ');
  const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/** The update date worth showing: only when it falls on a later calendar day (in the tenant's zone). */
export function shownUpdate(
  post: Pick<PostSummary, 'published_at' | 'updated_at'>,
  timeZone: string,
): string | null {
  const { published_at: published, updated_at: updated } = post;
  const [a, b] = [readDate(published)?.date, readDate(updated)?.date];
  if (!a || !b || !updated || b <= a) return null;
  return isoDateInZone(b, timeZone) > isoDateInZone(a, timeZone) ? updated : null;
}

/** Newest first by `published_at`; posts without a date go last, keeping their order. */
export function newestFirst<T extends Pick<PostSummary, 'published_at'>>(posts: readonly T[]): T[] {
  // A time without an offset is UTC, as everywhere on the site (not the server's zone).
  const time = (post: T) => readDate(post.published_at)?.date.getTime() ?? -Infinity;
  // Each date parsed once, not on every comparison (a post page sorts what lists showed lately).
  return posts
    .map((post) => ({ post, at: time(post) }))
    .sort((a, b) => b.at - a.at)
    .map(({ post }) => post);
}

/** The front page's three tiers: the lead story (newest featured), secondaries, then the list. */
export function frontPage<T extends Pick<PostSummary, 'published_at' | 'id'>>(
  featured: readonly T[],
  latest: readonly T[],
): { lead: T | null; secondary: T[]; list: T[] } {
  const [lead = null, ...secondary] = newestFirst(featured);
  const shown = new Set([lead, ...secondary].map((post) => post?.id));
  return { lead, secondary, list: latest.filter((post) => !shown.has(post.id)) };
}

/**
 * Grid columns for `count` cards on medium and wide screens, chosen so the last row is full
 * (or as full as the count allows): 4 → 2 and 4, 6 → 2 and 3, 9 → 3 and 3, 7 → 2 and 3.
 */
export function gridColumns(count: number): { medium: 1 | 2 | 3; wide: 1 | 2 | 3 | 4 } {
  if (count <= 1) return { medium: 1, wide: 1 };
  const medium = count % 2 === 0 || count > 3 ? 2 : 3;
  const wide = count % 3 === 0 ? 3 : count % 4 === 0 ? 4 : count % 2 === 0 ? 2 : 3;
  return { medium, wide };
}
