import PQueue from 'p-queue';
import type { ImageWidth } from './ladder.ts';

/**
 * How soon a picture is wanted, higher first: what a page shows in view (its LCP), then the pictures
 * a page shows at size, then thumbnails, then warming ahead of readers (./prewarm.ts).
 */
export const PRIORITY = { warm: 0, thumbnail: 1, picture: 2, view: 3 } as const;
export type Priority = (typeof PRIORITY)[keyof typeof PRIORITY];

/** Widths only thumbnails ask for: the reader's strip (160, 320 on dense screens), small cards. */
const THUMBNAIL_MAX: ImageWidth = 320;

/**
 * RFC 9218's urgency (`u=0`…`u=7`, 3 when absent) of a `Priority` header, undefined without one:
 * Chromium sends `u=1` for an `<img fetchpriority="high">` over HTTP/2 and 3, nothing over HTTP/1.1.
 */
export function urgencyOf(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const u = /(?:^|,)\s*u\s*=\s*([0-7])\s*(?:[,;]|$)/.exec(header)?.[1];
  return u === undefined ? 3 : Number(u);
}

/**
 * A request's priority: urgency 0–2 is the picture the page's LCP depends on; otherwise by width,
 * which every protocol carries (the address holds nothing for it: one spelling per picture).
 */
export function requestPriority(width: number, priorityHeader?: string | null): Priority {
  const urgency = urgencyOf(priorityHeader);
  if (urgency !== undefined && urgency <= 2) return PRIORITY.view;
  return width <= THUMBNAIL_MAX ? PRIORITY.thumbnail : PRIORITY.picture;
}

/**
 * At most `concurrency` jobs at once, the waiting ones by priority (first come first within one); a
 * waiting job with an id can be moved up.
 */
export class TransformQueue {
  private readonly queue: PQueue;
  /** Waiting jobs that have an id, and their priority. */
  private readonly queued = new Map<string, Priority>();
  /** The most jobs that ran at once (for tests and benchmarks). */
  peak = 0;

  constructor(concurrency: number) {
    this.queue = new PQueue({ concurrency });
  }

  /** Jobs waiting for a slot. */
  get waiting(): number {
    return this.queue.size;
  }

  /** Runs `job` when a slot is free and no job of higher priority waits. */
  run<T>(job: () => Promise<T>, priority: Priority, id?: string): Promise<T> {
    if (id !== undefined) this.queued.set(id, priority);
    return this.queue.add(
      () => {
        if (id !== undefined) this.queued.delete(id);
        this.peak = Math.max(this.peak, this.queue.pending);
        return job();
      },
      { priority, ...(id === undefined ? {} : { id }) },
    );
  }

  /** Moves the waiting job `id` up to `priority` (a reader asked for what was being warmed). */
  raise(id: string, priority: Priority): void {
    const queued = this.queued.get(id);
    if (queued === undefined || queued >= priority) return;
    this.queued.set(id, priority);
    this.queue.setPriority(id, priority);
  }
}
