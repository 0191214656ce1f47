import { readDate } from '../i18n/format.ts';

/** Where a stream stands: its badge, its order in lists. */
export type StreamStatus = 'live' | 'scheduled' | 'ended';

/**
 * What its badge says: the status, and for a stream the upstream still calls scheduled after its
 * start, `starting` ("Starting soon") for {@link LATE_AFTER_MS}, then `delayed`.
 */
export type StreamState = StreamStatus | 'starting' | 'delayed';

/** How long after its start a stream still called scheduled is "starting soon"; then "delayed". */
export const LATE_AFTER_MS = 15 * 60_000;

/** A scheduled stream's state at `now` from its start (`null`: no start known, so still ahead). */
export function scheduledState(
  start: number | null,
  now: number,
): 'scheduled' | 'starting' | 'delayed' {
  if (start === null || start > now) return 'scheduled';
  return now - start < LATE_AFTER_MS ? 'starting' : 'delayed';
}

export function timeOf(value: string | null | undefined): number | null {
  return readDate(value)?.date.getTime() ?? null;
}

/**
 * The state at `now` from the times alone (a static copy's badge decides this in the browser). Its own
 * module so the badge script does not bundle the dictionaries that status.ts imports. `scheduled`:
 * the build saw the stream scheduled, so after its start it is starting soon, then delayed.
 */
export function statusAt(
  times: {
    start: string | null | undefined;
    end: string | null | undefined;
    scheduled?: boolean | undefined;
  },
  now: number,
): StreamState {
  const end = timeOf(times.end);
  if (end !== null && end <= now) return 'ended';
  const start = timeOf(times.start);
  if (times.scheduled) return scheduledState(start, now);
  return start !== null && start > now ? 'scheduled' : 'live';
}
