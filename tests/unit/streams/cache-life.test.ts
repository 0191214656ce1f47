import { describe, expect, it } from 'vitest';
import { streamSchema, type Stream } from '../../../src/lib/publishing/schema.ts';
import {
  DUE_CACHE,
  isDue,
  nextStart,
  streamCacheLife,
} from '../../../src/lib/streams/cache-life.ts';
import { LATE_AFTER_MS } from '../../../src/lib/streams/status-at.ts';

const stream = (fields: Record<string, unknown>): Stream =>
  streamSchema.parse({ title: 'T', slug: 't', ...fields });

const NOW = Date.parse('2026-11-26T12:00:00Z');
const inSeconds = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();
const scheduled = (seconds: number) =>
  stream({ status: 'scheduled', scheduled_at: inSeconds(seconds) });
const BASE = { maxAge: 30, swr: 60 };

describe('streamCacheLife: a page never says "Upcoming" past the start', () => {
  it.each([
    ['nothing scheduled', [stream({ status: 'live', started_at: inSeconds(-60) })], BASE],
    ['a start far ahead', [scheduled(3600)], BASE],
    ['a start within fresh and stale time', [scheduled(50)], { maxAge: 30, swr: 20 }],
    ['a start within the fresh time', [scheduled(12)], { maxAge: 12, swr: 0 }],
    ['the soonest of several starts', [scheduled(3600), scheduled(40)], { maxAge: 30, swr: 10 }],
    ['a start less than a second ahead (not kept)', [scheduled(0.5)], { maxAge: 0, swr: 0 }],
    ['a stream due: started by the clock, still scheduled upstream', [scheduled(-3)], DUE_CACHE],
  ])('%s', (_case, streams, expected) => {
    const life = streamCacheLife(BASE, streams, NOW);
    expect(life).toEqual(expected);
    const start = nextStart(streams, NOW);
    if (start !== null) expect(NOW + (life.maxAge + life.swr) * 1000).toBeLessThanOrEqual(start);
  });

  it('never lengthens a shorter rule', () => {
    expect(streamCacheLife({ maxAge: 2, swr: 0 }, [scheduled(-3)], NOW)).toEqual({
      maxAge: 2,
      swr: 0,
    });
  });
});

describe('isDue', () => {
  it('is a scheduled stream past its start, within the window; never a live or ended one', () => {
    expect(isDue(scheduled(-1), NOW)).toBe(true);
    expect(isDue(scheduled(1), NOW)).toBe(false);
    expect(isDue(scheduled(-LATE_AFTER_MS / 1000 - 1), NOW)).toBe(false);
    expect(isDue(stream({ status: 'live', scheduled_at: inSeconds(-1) }), NOW)).toBe(false);
    expect(isDue(stream({ status: 'ended', scheduled_at: inSeconds(-1) }), NOW)).toBe(false);
    expect(isDue(stream({ status: 'scheduled', scheduled_at: 'soon' }), NOW)).toBe(false);
  });
});
