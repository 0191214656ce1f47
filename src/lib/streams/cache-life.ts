import type { Stream } from '../publishing/schema.ts';
import type { PublicLife } from '../delivery/policy.ts';
import { TTL } from '../upstream/ttl.ts';
import { streamState } from './status.ts';
import { timeOf } from './status-at.ts';

/**
 * How long a page that shows streams' states may be kept (route cache and edge): its status must
 * not outlive a stream's start. A page is never kept, fresh or stale, past the next scheduled
 * start; after the start, a stream the upstream still calls scheduled is read afresh and its page
 * kept only briefly until the upstream says it is live.
 */

/** Route-cache lifetimes of the stream pages: live status flips, so they stay fresh for seconds, not minutes. */
export const STREAM_CACHE = { maxAge: 30, swr: 60 } as const;

/**
 * Seconds within which a page kept `maxAge` s in the route cache shows a stream the upstream changed
 * (rescheduled, started, ended) without a start due: 2 × `maxAge` + the stream reads' fresh time
 * (../upstream/ttl.ts `stream`, `streamList`: 20 s). No watcher looks at streams (the change watcher reads
 * posts only), so the caches' lifetimes alone bound it. A page past `maxAge` is served stale while
 * it is rendered again in the background, and that render may still get the stream's previous copy
 * (served while it is refreshed): the render after it is the first to show the change. A stream
 * page or /streams (`STREAM_CACHE`): 80 s; the front page's live band (`FRONT_PAGE_CACHE_SECONDS`,
 * 60 s by default): 140 s. Behind the shipped nginx edge, which refreshes in the background too,
 * add `maxAge` once more. Renders themselves come on top (slow on a starved CPU). A start is the
 * exception: no page is kept past a scheduled start (`streamCacheLife`). `POST /_purge` with
 * `{"everything": true}` shows a change at once.
 */
export function streamChangeShownWithin(maxAge: number): number {
  return 2 * maxAge + Math.max(TTL.stream.fresh, TTL.streamList.fresh);
}

type Timed = Pick<Stream, 'is_live' | 'status' | 'scheduled_at' | 'started_at' | 'ended_at'>;

/** The cache life of a page while one of its streams is due (started by the clock only). */
export const DUE_CACHE: Required<PublicLife> = { maxAge: 5, swr: 0 };

/** Started by the clock, not yet by the upstream (its "starting soon"): read it afresh. */
export function isDue(stream: Timed, now: number): boolean {
  return streamState(stream, now) === 'starting';
}

/** The earliest scheduled start still ahead, in ms, or `null`. */
export function nextStart(streams: readonly Timed[], now: number): number | null {
  const ahead = streams.filter((stream) => streamState(stream, now) === 'scheduled');
  const next = Math.min(...ahead.map((stream) => timeOf(stream.scheduled_at) ?? Infinity));
  return next === Infinity ? null : next;
}

/**
 * `base`, shortened so the page is neither fresh nor stale after the next scheduled start of
 * `streams` (the first request after it renders anew), and to {@link DUE_CACHE} while one is due.
 */
export function streamCacheLife(
  base: Required<PublicLife>,
  streams: readonly Timed[],
  now: number,
): Required<PublicLife> {
  if (streams.some((stream) => isDue(stream, now))) {
    return {
      maxAge: Math.min(base.maxAge, DUE_CACHE.maxAge),
      swr: Math.min(base.swr, DUE_CACHE.swr),
    };
  }
  const next = nextStart(streams, now);
  if (next === null) return base;
  const left = Math.floor((next - now) / 1000);
  const maxAge = Math.min(base.maxAge, left);
  return { maxAge, swr: Math.max(0, Math.min(base.swr, left - maxAge)) };
}
