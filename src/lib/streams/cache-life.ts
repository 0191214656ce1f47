import type { Stream } from '../publishing/schema.ts';
import type { CacheLife } from '../render/page-respond.ts';
import { streamStatus } from './status.ts';
import { timeOf } from './status-at.ts';

/**
 * How long a page that shows streams' states may be kept (route cache and edge): its status must
 * not outlive a stream's start. A page is never kept, fresh or stale, past the next scheduled
 * start; after the start, a stream the upstream still calls scheduled is read afresh and its page
 * kept only briefly until the upstream says it is live.
 */

type Timed = Pick<Stream, 'is_live' | 'status' | 'scheduled_at' | 'started_at' | 'ended_at'>;

/** The cache life of a page while one of its streams is due (started by the clock only). */
export const DUE_CACHE: CacheLife = { maxAge: 5, swr: 0 };
/** How long after its start a stream still called scheduled counts as due (then: late or gone). */
export const DUE_WINDOW_MS = 15 * 60_000;

function scheduledStart(stream: Timed): number | null {
  if (streamStatus(stream) !== 'scheduled') return null;
  return timeOf(stream.scheduled_at);
}

/** Started by the clock within {@link DUE_WINDOW_MS}, not yet by the upstream: read it afresh. */
export function isDue(stream: Timed, now: number): boolean {
  const start = scheduledStart(stream);
  return start !== null && start <= now && now - start < DUE_WINDOW_MS;
}

/** The earliest scheduled start still ahead, in ms, or `null`. */
export function nextStart(streams: readonly Timed[], now: number): number | null {
  let next: number | null = null;
  for (const stream of streams) {
    const start = scheduledStart(stream);
    if (start !== null && start > now && (next === null || start < next)) next = start;
  }
  return next;
}

/**
 * `base`, shortened so the page is neither fresh nor stale after the next scheduled start of
 * `streams` (the first request after it renders anew), and to {@link DUE_CACHE} while one is due.
 */
export function streamCacheLife(
  base: CacheLife,
  streams: readonly Timed[],
  now: number,
): CacheLife {
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
