import { describe, expect, it } from 'vitest';
import { streamSchema, type Stream } from '../../../src/lib/publishing/schema.ts';
import {
  STATE_LABEL,
  STATUS_LABEL,
  clockStart,
  countdownStart,
  streamState,
  sortStreams,
  statusAt,
  statusTimes,
  streamStatus,
  streamTiming,
} from '../../../src/lib/streams/status.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';

const english = createI18n('en', 'UTC').t;

const stream = (fields: Record<string, unknown>): Stream =>
  streamSchema.parse({ title: 'T', slug: 't', ...fields });

const NEW_YORK = { locale: 'en-US', timeZone: 'America/New_York' };
const ZURICH = { locale: 'de-CH', timeZone: 'Europe/Zurich' };
const BEFORE = Date.parse('2026-01-01T00:00:00Z');

describe('stream status', () => {
  it.each([
    [{ is_live: true, status: 'ended' }, 'live'],
    [{ is_live: 'true' }, 'live'],
    [{ status: 'live', is_live: false }, 'live'],
    [{ status: 'scheduled' }, 'scheduled'],
    [{ status: ' Scheduled ' }, 'scheduled'],
    [{ status: 'upcoming' }, 'scheduled'],
    [{ status: 'ended' }, 'ended'],
    [{ status: 'finished' }, 'ended'],
    [{ status: 'mystery', ended_at: '2026-01-01T00:00:00Z' }, 'ended'],
    [{ status: 'mystery', started_at: '2026-01-01T00:00:00Z' }, 'live'],
    [{}, 'scheduled'],
  ])('%j is %s', (fields, expected) => {
    expect(streamStatus(stream(fields))).toBe(expected);
  });

  it('labels every state with words, not colour alone', () => {
    const { t } = createI18n('en-US', 'UTC');
    expect(Object.values(STATUS_LABEL).map((key) => t(key))).toEqual(['Live', 'Upcoming', 'Ended']);
  });
});

describe('stream timing in the tenant locale and zone', () => {
  it.each([
    [
      { status: 'scheduled', scheduled_at: '2026-11-23T18:00:00+00:00' },
      NEW_YORK,
      { label: 'Starts', iso: '2026-11-23T18:00:00.000Z', text: 'Nov 23, 2026, 1:00 PM EST' },
    ],
    [
      { status: 'scheduled', scheduled_at: '2026-11-23T23:30:00+00:00' },
      ZURICH,
      { label: 'Starts', iso: '2026-11-23T23:30:00.000Z', text: '24.11.2026, 00:30 MEZ' },
    ],
    [
      {
        status: 'live',
        is_live: true,
        scheduled_at: '2026-11-21T23:00:00Z',
        started_at: '2026-11-21T23:30:00Z',
      },
      NEW_YORK,
      { label: 'Started', iso: '2026-11-21T23:30:00.000Z', text: 'Nov 21, 2026, 6:30 PM EST' },
    ],
    [
      { status: 'live', scheduled_at: '2026-11-21T23:00:00Z' },
      NEW_YORK,
      { label: 'Started', iso: '2026-11-21T23:00:00.000Z', text: 'Nov 21, 2026, 6:00 PM EST' },
    ],
    [
      {
        status: 'ended',
        started_at: '2026-11-16T19:00:00+00:00',
        ended_at: '2026-11-16T20:35:00+00:00',
      },
      NEW_YORK,
      { label: 'Ended', iso: '2026-11-16T20:35:00.000Z', text: 'Nov 16, 2026, 3:35 PM EST' },
    ],
  ])('%j in %j, with the zone', (fields, tenant, expected) => {
    // Seen before any of these times: a scheduled one still "Starts".
    const timing = streamTiming(stream(fields), tenant, english, BEFORE);
    expect(timing && { ...timing, text: timing.text.replace(/\u202f|\u00a0/g, ' ') }).toEqual(
      expected,
    );
  });

  it.each([
    [{ status: 'scheduled' }],
    [{ status: 'scheduled', scheduled_at: 'soon' }],
    [{ status: 'ended', started_at: '2026-11-16T19:00:00Z' }],
    [{ status: 'live' }],
  ])('has no time line for %j', (fields) => {
    expect(streamTiming(stream(fields), NEW_YORK, english)).toBeNull();
  });
});

describe('stream order', () => {
  it('puts live first, then scheduled soonest first, then ended latest first', () => {
    const shuffled = [
      stream({ slug: 'ended-old', status: 'ended', ended_at: '2026-11-01T20:00:00Z' }),
      stream({ slug: 'sched-later', status: 'scheduled', scheduled_at: '2026-11-25T18:00:00Z' }),
      stream({ slug: 'live-a', status: 'live', started_at: '2026-11-21T23:00:00Z' }),
      stream({ slug: 'ended-new', status: 'ended', ended_at: '2026-11-16T20:00:00Z' }),
      stream({ slug: 'sched-undated', status: 'scheduled' }),
      stream({ slug: 'sched-soon', status: 'scheduled', scheduled_at: '2026-11-23T18:00:00Z' }),
      stream({ slug: 'live-b', is_live: true, started_at: '2026-11-21T23:30:00Z' }),
    ];
    expect(sortStreams(shuffled).map((s) => s.slug)).toEqual([
      'live-b',
      'live-a',
      'sched-soon',
      'sched-later',
      'sched-undated',
      'ended-new',
      'ended-old',
    ]);
  });

  it('keeps the upstream order on ties and does not change its input', () => {
    const list = [
      stream({ slug: 'a', status: 'ended' }),
      stream({ slug: 'b', status: 'ended' }),
      stream({ slug: 'c', status: 'live' }),
    ];
    expect(sortStreams(list).map((s) => s.slug)).toEqual(['c', 'a', 'b']);
    expect(list.map((s) => s.slug)).toEqual(['a', 'b', 'c']);
  });
});

describe('stream timing in the tenant’s language', () => {
  it('says "Beginnt" to a German tenant', () => {
    const timing = streamTiming(
      stream({ status: 'scheduled', scheduled_at: '2026-07-01T18:00:00Z' }),
      ZURICH,
      createI18n('de-CH', 'Europe/Zurich').t,
      BEFORE,
    );
    expect(timing?.label).toBe('Beginnt');
    expect(timing?.text).toMatch(/20:00 MESZ$/);
  });
});

describe('a static copy decides live, scheduled or ended at view time', () => {
  const at = Date.parse('2026-11-22T12:00:00Z');
  it.each([
    [{ start: '2026-11-22T13:00:00Z', end: null }, 'scheduled'],
    [{ start: '2026-11-22T11:00:00Z', end: null }, 'live'],
    [{ start: '2026-11-22T10:00:00Z', end: '2026-11-22T11:00:00Z' }, 'ended'],
    [{ start: '2026-11-22T10:00:00Z', end: '2026-11-22T13:00:00Z' }, 'live'],
    [{ start: null, end: null }, 'live'],
  ] as const)('%o at noon is %s', (times, expected) => {
    expect(statusAt(times, at)).toBe(expected);
  });

  it('carries the start (started, else scheduled) and the end as ISO times', () => {
    expect(statusTimes(stream({ scheduled_at: '2026-11-22T13:00:00Z' }))).toEqual({
      start: '2026-11-22T13:00:00.000Z',
      end: null,
      scheduled: true,
    });
  });

  it('never turns a stream the upstream calls ended live again when it names no end', () => {
    const ended = stream({ status: 'ended', scheduled_at: '2026-11-18T19:00:00Z' });
    expect(statusAt(statusTimes(ended), at)).toBe('ended');
    const started = stream({ status: 'live', started_at: '2026-11-22T11:00:00Z' });
    expect(statusAt(statusTimes(started), at)).toBe('live');
  });
});

describe('the countdown before a scheduled stream', () => {
  const start = Date.parse('2026-11-27T20:00:00Z');

  it('runs to the instant the upstream means: UTC when its timestamp names no offset', () => {
    // The browser reads `data-start` on the visitor's clock: an offset-less value would move the start.
    for (const scheduled_at of [
      '2026-11-27 20:00:00',
      '2026-11-27T20:00:00',
      '2026-11-27T21:00:00+01:00',
    ]) {
      const scheduled = stream({ status: 'scheduled', scheduled_at });
      expect(countdownStart(scheduled, start - 3_600_000)).toBe('2026-11-27T20:00:00.000Z');
    }
  });

  it('is left out (the player shown) once less than a second is left, or the stream is not scheduled', () => {
    const scheduled = stream({ status: 'scheduled', scheduled_at: '2026-11-27T20:00:00Z' });
    expect(countdownStart(scheduled, start - 1000)).toBe('2026-11-27T20:00:00.000Z');
    expect(countdownStart(scheduled, start - 500)).toBeNull();
    expect(countdownStart(scheduled, start + 1000)).toBeNull();
    expect(countdownStart(stream({ status: 'scheduled' }), start)).toBeNull();
    expect(countdownStart(stream({ status: 'scheduled', scheduled_at: 'soon' }), start)).toBeNull();
    const live = stream({ is_live: true, scheduled_at: '2026-11-27T20:00:00Z' });
    expect(countdownStart(live, start - 3_600_000)).toBeNull();
  });
});

describe('a stream the upstream still calls scheduled after its start', () => {
  const start = Date.parse('2026-11-27T20:00:00Z');
  const scheduled = stream({ status: 'scheduled', scheduled_at: '2026-11-27T20:00:00' });
  const minutes = (n: number) => start + n * 60_000;

  it('is upcoming before, starting soon for 15 minutes, then delayed; live and ended as the upstream says', () => {
    expect(streamState(scheduled, minutes(-1))).toBe('scheduled');
    expect(streamState(scheduled, minutes(0))).toBe('starting');
    expect(streamState(scheduled, minutes(14.9))).toBe('starting');
    expect(streamState(scheduled, minutes(15))).toBe('delayed');
    expect(streamState(scheduled, minutes(600))).toBe('delayed');
    expect(streamState(stream({ status: 'scheduled' }), minutes(60))).toBe('scheduled');
    const live = stream({ is_live: true, scheduled_at: '2026-11-27T20:00:00Z' });
    expect(streamState(live, minutes(60))).toBe('live');
    expect(streamState(stream({ status: 'ended' }), minutes(60))).toBe('ended');
  });

  it('says so in words in all three languages', () => {
    const say = (locale: string) => {
      const { t } = createI18n(locale, 'UTC');
      return [t(STATE_LABEL.starting), t(STATE_LABEL.delayed)];
    };
    expect(say('en-US')).toEqual(['Starting soon', 'Delayed']);
    expect(say('de-CH')).toEqual(['Beginnt gleich', 'Verspätet']);
    expect(say('fr-FR')).toEqual(['Commence bientôt', 'En retard']);
  });

  it('once delayed, says when it should have started, on the tenant’s clock and in its language', () => {
    const at = minutes(20);
    const spaces = (text = '') => text.replace(/\u202f|\u00a0/g, ' ');
    const timing = streamTiming(scheduled, NEW_YORK, english, at);
    expect(timing && { ...timing, text: spaces(timing.text) }).toEqual({
      label: 'Should have started',
      iso: '2026-11-27T20:00:00.000Z',
      text: 'Nov 27, 2026, 3:00 PM EST',
    });
    const german = streamTiming(scheduled, ZURICH, createI18n('de-CH', 'Europe/Zurich').t, at);
    expect(german?.label).toBe('Geplanter Beginn war');
    expect(german?.text).toMatch(/21:00 MEZ$/);
    const french = streamTiming(scheduled, ZURICH, createI18n('fr-FR', 'Europe/Zurich').t, at);
    expect(french?.label).toBe('Devait commencer le');
    // Within the first 15 minutes it still "Starts" at its time.
    expect(streamTiming(scheduled, NEW_YORK, english, minutes(5))?.label).toBe('Starts');
  });

  it('gives the page’s clock its start until delayed (then nothing is left to move on)', () => {
    expect(clockStart(scheduled, minutes(-60))).toBe('2026-11-27T20:00:00.000Z');
    expect(clockStart(scheduled, minutes(5))).toBe('2026-11-27T20:00:00.000Z');
    expect(clockStart(scheduled, minutes(15))).toBeNull();
    expect(
      clockStart(stream({ is_live: true, scheduled_at: '2026-11-27T20:00:00Z' }), 0),
    ).toBeNull();
  });

  it('comes after live streams and before those still to come', () => {
    const later = stream({
      slug: 'later',
      status: 'scheduled',
      scheduled_at: '2026-11-28T20:00:00Z',
    });
    const live = stream({ slug: 'live', is_live: true, started_at: '2026-11-27T19:00:00Z' });
    const late = stream({ ...scheduled, slug: 'late' });
    expect(sortStreams([later, late, live]).map((s) => s.slug)).toEqual(['live', 'late', 'later']);
  });

  it('reads the same in a static copy at view time', () => {
    const times = { ...statusTimes(scheduled), scheduled: true };
    expect(statusAt(times, minutes(-1))).toBe('scheduled');
    expect(statusAt(times, minutes(5))).toBe('starting');
    expect(statusAt(times, minutes(20))).toBe('delayed');
    // One the build saw live stays live until its end.
    expect(statusAt({ ...times, scheduled: false }, minutes(20))).toBe('live');
  });
});
