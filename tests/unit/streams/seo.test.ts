import { describe, expect, it } from 'vitest';
import { streamSchema } from '../../../src/lib/publishing/schema.ts';
import { streamLd } from '../../../src/lib/streams/seo.ts';

const base = {
  title: 'Council',
  slug: 'council',
  description: 'Budget session.',
  thumbnail_url: 'https://cdn.test/council.svg',
  watch_url: 'https://player.test/council',
};
const URL = 'https://dailyplanet.example.com/streams/council';

describe('stream structured data', () => {
  it.each([
    [
      'live',
      { status: 'live', is_live: true, started_at: '2026-11-21T23:30:00+00:00' },
      { isLiveBroadcast: true, startDate: '2026-11-21T23:30:00.000Z' },
    ],
    [
      'scheduled',
      { status: 'scheduled', scheduled_at: '2026-11-23T18:00:00+00:00' },
      { isLiveBroadcast: true, startDate: '2026-11-23T18:00:00.000Z' },
    ],
    [
      'ended',
      {
        status: 'ended',
        started_at: '2026-11-16T19:00:00+00:00',
        ended_at: '2026-11-16T20:35:00+00:00',
      },
      {
        isLiveBroadcast: true,
        startDate: '2026-11-16T19:00:00.000Z',
        endDate: '2026-11-16T20:35:00.000Z',
      },
    ],
  ])('describes a %s stream as a VideoObject with its BroadcastEvent', (_name, fields, event) => {
    const ld = streamLd(streamSchema.parse({ ...base, ...fields }), URL);
    expect(ld).toMatchObject({
      '@type': 'VideoObject',
      name: 'Council',
      description: 'Budget session.',
      thumbnailUrl: base.thumbnail_url,
      url: URL,
      publication: { '@type': 'BroadcastEvent', ...event },
    });
  });

  it('gives every time with an offset, reading one the API sent without as UTC (as the page does)', () => {
    const ld = streamLd(
      streamSchema.parse({
        ...base,
        status: 'ended',
        started_at: '2026-11-16T19:00:00',
        ended_at: '2026-11-16 20:35:00',
      }),
      URL,
    );
    expect(ld).toMatchObject({
      uploadDate: '2026-11-16T19:00:00.000Z',
      publication: { startDate: '2026-11-16T19:00:00.000Z', endDate: '2026-11-16T20:35:00.000Z' },
    });
  });

  it('keeps the instant of a time with another offset', () => {
    const ld = streamLd(
      streamSchema.parse({
        ...base,
        status: 'scheduled',
        scheduled_at: '2026-11-23T19:00:00+01:00',
      }),
      URL,
    );
    expect(ld).toMatchObject({ publication: { startDate: '2026-11-23T18:00:00.000Z' } });
  });

  it.each([
    ['no thumbnail', { thumbnail_url: null, scheduled_at: '2026-11-23T18:00:00Z' }],
    ['no date', { scheduled_at: null }],
    ['an unreadable date', { scheduled_at: 'soon' }],
  ])('is left out with %s', (_name, fields) => {
    expect(streamLd(streamSchema.parse({ ...base, ...fields }), URL)).toBeNull();
  });
});
