import { readDate } from '../i18n/format.ts';

/** Where a stream stands: its badge, its order in lists. */
export type StreamStatus = 'live' | 'scheduled' | 'ended';

export function timeOf(value: string | null | undefined): number | null {
  return readDate(value)?.date.getTime() ?? null;
}

/**
 * The state at `now` from the times alone (a static copy's badge decides this in the browser). Its own
 * module so the badge script does not bundle the dictionaries that status.ts imports.
 */
export function statusAt(
  times: { start: string | null | undefined; end: string | null | undefined },
  now: number,
): StreamStatus {
  const end = timeOf(times.end);
  if (end !== null && end <= now) return 'ended';
  const start = timeOf(times.start);
  return start !== null && start > now ? 'scheduled' : 'live';
}
