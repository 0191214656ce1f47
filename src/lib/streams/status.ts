import { dateTimeFormat } from '../i18n/intl-cache.ts';
import type { I18n, MessageKey } from '../i18n/index.ts';
import { isoInstant, readDate } from '../i18n/format.ts';
import type { Stream } from '../publishing/schema.ts';
import type { Tenant } from '../tenants/schema.ts';
import { remaining } from './countdown.ts';
import { scheduledState, timeOf, type StreamState, type StreamStatus } from './status-at.ts';

export type { StreamState, StreamStatus };

type StatusFields = Pick<Stream, 'is_live' | 'status' | 'started_at' | 'ended_at'>;

/** Upstream words for the three states (the contract names only live, scheduled and ended). */
const STATUS_WORDS: Readonly<Record<string, StreamStatus>> = {
  live: 'live',
  scheduled: 'scheduled',
  upcoming: 'scheduled',
  ended: 'ended',
  finished: 'ended',
  completed: 'ended',
  past: 'ended',
};

/** The stream's state: `is_live` wins, then `status`, then what the timestamps say. */
export function streamStatus(stream: StatusFields): StreamStatus {
  if (stream.is_live) return 'live';
  const word = stream.status?.trim().toLowerCase();
  const known = word ? STATUS_WORDS[word] : undefined;
  if (known) return known;
  if (stream.ended_at) return 'ended';
  if (stream.started_at) return 'live';
  return 'scheduled';
}

/** Badge text (a dictionary key): words, never colour alone. */
export const STATUS_LABEL: Readonly<Record<StreamStatus, MessageKey>> = {
  live: 'streams.live',
  scheduled: 'streams.scheduled',
  ended: 'streams.ended',
};

/** What the badge says at `now`: a scheduled stream past its start is starting soon, then delayed. */
export function streamState(
  stream: StatusFields & Pick<Stream, 'scheduled_at'>,
  now: number,
): StreamState {
  const status = streamStatus(stream);
  return status === 'scheduled' ? scheduledState(timeOf(stream.scheduled_at), now) : status;
}

export const STATE_LABEL: Readonly<Record<StreamState, MessageKey>> = {
  ...STATUS_LABEL,
  starting: 'streams.starting',
  delayed: 'streams.delayed',
};

type TimeFields = Pick<Stream, 'scheduled_at' | 'started_at' | 'ended_at'>;

/** The time a stream's state is about: its start ahead, the start it had, or its end. */
function stateTime(stream: TimeFields, status: StreamStatus): string | null | undefined {
  if (status === 'scheduled') return stream.scheduled_at;
  return status === 'live' ? (stream.started_at ?? stream.scheduled_at) : stream.ended_at;
}

const TIMING_LABEL: Readonly<Record<StreamStatus, MessageKey>> = {
  scheduled: 'streams.starts',
  live: 'streams.started',
  ended: 'streams.ended',
};

/**
 * The one time line a stream shows: scheduled → "Starts …" (once delayed: "Should have started …"),
 * live → "Started …", ended → "Ended …" (`label` in `t`'s language, `iso` for `<time datetime>`,
 * `text` in the tenant's zone, named); `null` when the upstream gave no usable timestamp for that state.
 */
export function streamTiming(
  stream: StatusFields & TimeFields,
  tenant: Pick<Tenant, 'locale' | 'timeZone'>,
  t: I18n['t'],
  now = Date.now(),
) {
  const status = streamStatus(stream);
  const date = readDate(stateTime(stream, status))?.date;
  if (!date) return null;
  const delayed = streamState(stream, now) === 'delayed';
  return {
    label: t(delayed ? 'streams.shouldHaveStarted' : TIMING_LABEL[status]),
    iso: date.toISOString(),
    text: zonedDateTime(date, tenant),
  };
}

/** `Nov 23, 2026, 1:00 PM EST`: a viewer elsewhere sees whose clock the time is on. */
export function zonedDateTime(date: Date, tenant: Pick<Tenant, 'locale' | 'timeZone'>): string {
  return dateTimeFormat(tenant.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: tenant.timeZone,
  })
    .formatToParts(date) // not `format`: V8's turns the U+202F before "PM" into a plain space
    .map((part) => part.value)
    .join('')
    .concat(' ', zoneName(date, tenant));
}

function zoneName(date: Date, tenant: Pick<Tenant, 'locale' | 'timeZone'>): string {
  const parts = dateTimeFormat(tenant.locale, {
    timeZone: tenant.timeZone,
    timeZoneName: 'short',
  }).formatToParts(date);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? tenant.timeZone;
}

const RANK: Readonly<Record<StreamStatus, number>> = { live: 0, scheduled: 1, ended: 2 };

/**
 * Live first, then scheduled (soonest first), then ended (latest first); the upstream already orders
 * lists this way, so this only guards a page against an upstream that does not. Missing times sort
 * last within their group; ties keep the upstream order.
 */
export function sortStreams<T extends Stream>(streams: readonly T[]): T[] {
  const keyed = streams.map((stream, index) => {
    const status = streamStatus(stream);
    const at = timeOf(stateTime(stream, status));
    // Ascending key: soonest scheduled first, latest ended / most recently started live first.
    const key = at === null ? Infinity : status === 'scheduled' ? at : -at;
    return { stream, index, rank: RANK[status], key };
  });
  // Two missing times (Infinity − Infinity is NaN) tie.
  keyed.sort((a, b) => a.rank - b.rank || a.key - b.key || a.index - b.index);
  return keyed.map((entry) => entry.stream);
}

/**
 * The start a scheduled stream's countdown runs to, as an ISO instant (read as `readDate` reads the
 * upstream's timestamp, so the visitor's browser cannot put it on its own clock), while at least a
 * second is left (the countdown's own rule: below that it shows nothing and the player must show);
 * `null` when there is no countdown.
 */
export function countdownStart(stream: StatusFields & TimeFields, now: number): string | null {
  if (streamStatus(stream) !== 'scheduled') return null;
  const start = timeOf(stream.scheduled_at);
  return start !== null && remaining(start, now) ? new Date(start).toISOString() : null;
}

/**
 * The start the stream page's clock script runs from (ISO) while the stream is upcoming or starting
 * soon: it moves the badge on at the start and once delayed, as the server would render it then.
 */
export function clockStart(stream: StatusFields & TimeFields, now: number): string | null {
  if (!movesOnAtStart(streamState(stream, now))) return null;
  return isoInstant(stream.scheduled_at) ?? null;
}

/** Whether a badge saying `state` changes with time alone (upcoming, starting soon, then delayed). */
export function movesOnAtStart(state: StreamState): boolean {
  return state === 'scheduled' || state === 'starting';
}

/** Badge text of a static copy before its script has run: never "Live" from build-time data. */
export const STATIC_LABEL: Readonly<Record<StreamState, MessageKey>> = {
  ...STATE_LABEL,
  live: 'streams.started',
};

/**
 * The start and end a static copy's badge carries, for {@link statusAt} at view time. A stream the
 * upstream calls ended without an `ended_at` ends at its start: never live again at view time.
 */
export function statusTimes(stream: StatusFields & TimeFields): {
  start: string | null;
  end: string | null;
  /** Scheduled when built: after its start it is starting soon, then delayed (as on the server). */
  scheduled: boolean;
} {
  const status = streamStatus(stream);
  const start = isoInstant(stream.started_at ?? stream.scheduled_at) ?? null;
  const end = isoInstant(stream.ended_at) ?? (status === 'ended' ? start : null);
  return { start, end, scheduled: status === 'scheduled' };
}

export { statusAt } from './status-at.ts';
