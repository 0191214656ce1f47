import { describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { demo, expectError, http, isoDay, useMock } from './helpers.ts';

const t = useMock();
const full = { token: demo.lodging['harbour-hotels'].fullToken };
const fault = (body: Record<string, unknown>) => t.control('/faults', { method: 'POST', body });

describe('fault injection', () => {
  it('adds latency per service', async () => {
    // A delay far above a loaded machine's own latency, so the lodging call's margin means something.
    await fault({ service: 'publishing', latencyMs: 1000 });
    let start = performance.now();
    expect((await t.pub('/plans')).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(990);
    start = performance.now();
    expect((await t.lodge('/properties', full)).status).toBe(200);
    expect(performance.now() - start).toBeLessThan(700);
    await t.control('/faults', { method: 'DELETE' });
  });

  it.each([
    [1, 20, 20],
    [0.5, 5, 35],
  ])('answers a %d share of requests with 500', async (errorRate, min, max) => {
    await fault({ service: 'lodging', errorRate });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => t.lodge('/properties', full).then((r) => r.status)),
    );
    const errors = statuses.filter((s) => s === 500).length;
    expect(errors).toBeGreaterThanOrEqual(errorRate === 1 ? 40 : min);
    expect(errors).toBeLessThanOrEqual(errorRate === 1 ? 40 : max);
    expect(statuses.every((s) => s === 500 || s === 200)).toBe(true);
    await t.control('/faults', { method: 'DELETE' });
  });

  it('forces 429 with Retry-After', async () => {
    await fault({ service: 'publishing', force429: true });
    const res = await t.pub('/plans');
    expectError(res, 429, 'Too Many Attempts.');
    expect(res.headers.get('retry-after')).toBe('60');
    await fault({ service: 'publishing', retryAfterSeconds: 2 });
    expect((await t.pub('/plans')).headers.get('retry-after')).toBe('2');
    await fault({ service: 'publishing', force429: false });
    expect((await t.pub('/plans')).status).toBe(200);
  });

  it('returns malformed JSON with status 200', async () => {
    await fault({ service: 'lodging', malformed: true });
    const res = await t.lodge('/properties', full);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(() => JSON.parse(res.text) as unknown).toThrow();
    await t.control('/faults', { method: 'DELETE' });
  });

  it('takes a service down (connection refused) and brings it back on the same port', async () => {
    const before = await t.pub('/plans');
    expect(before.status).toBe(200);
    const faults = await fault({ service: 'publishing', down: true });
    expect(faults.body).toMatchObject({ publishing: { down: true }, lodging: { down: false } });
    const err: unknown = await t.pub('/plans').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(((err as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
    expect((await t.lodge('/properties', full)).status).toBe(200);
    await fault({ service: 'publishing', down: false });
    expect((await t.pub('/plans')).status).toBe(200);
    // DELETE /faults also brings a downed service back.
    await fault({ service: 'lodging', down: true });
    await t.control('/faults', { method: 'DELETE' });
    expect((await t.lodge('/properties', full)).status).toBe(200);
  });

  it('rejects invalid fault bodies with 422', async () => {
    expect((await fault({ service: 'mail' })).status).toBe(422);
    expect((await fault({ service: 'lodging', errorRate: 2 })).status).toBe(422);
  });

  it('applies MOCK_FAULTS at start', async () => {
    process.env['MOCK_FAULTS'] = JSON.stringify({ lodging: { errorRate: 1 } });
    try {
      const m = await startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0 });
      try {
        expect((await http(`${m.lodgingUrl}/properties`, full)).status).toBe(500);
        expect((await http(`${m.publishingUrl}/plans`, { tenant: 'daily-planet' })).status).toBe(
          200,
        );
      } finally {
        await m.close();
      }
    } finally {
      delete process.env['MOCK_FAULTS'];
    }
  });
});

describe('stats', () => {
  it('counts requests per service and per METHOD path-pattern', async () => {
    await t.control('/stats', { method: 'DELETE' });
    const guestId = ((await t.lodge('/guests', full)).body as { data: { id: string }[] }).data[0]
      ?.id;
    const [prop] = demo.lodging['harbour-hotels'].propertyIds;
    const rooms = (
      (await t.lodge(`/properties/${prop}`, full)).body as {
        data: { room_types: { id: string }[] };
      }
    ).data.room_types;
    const body = {
      property_id: prop,
      room_type_id: rooms[0]?.id,
      guest_id: guestId,
      check_in: isoDay(300),
      check_out: isoDay(301),
      adults: 1,
    };
    await t.lodge('/bookings', { ...full, method: 'POST', body });
    await t.lodge('/bookings', { ...full, method: 'POST', body });
    await t.pub('/posts/welcome-to-our-new-website');
    await t.pub('/no-such-route');
    const stats = (await t.control('/stats')).body;
    const none = { total: 0, by: {} };
    expect(stats).toEqual({
      publishing: {
        total: 2,
        routes: { 'GET /posts/{slug}': 1, 'GET (unmatched)': 1 },
        rateLimited: none,
      },
      lodging: {
        total: 4,
        routes: { 'GET /guests': 1, 'GET /properties/{id}': 1, 'POST /bookings': 2 },
        rateLimited: none,
      },
    });
  });
});

describe('reset', () => {
  it('reseeds data, drops run-time tokens and restores the fixed demo tokens', async () => {
    const token = await t.login('editor');
    const created = await t.pub('/posts', {
      method: 'POST',
      token,
      body: { title: 'Before reset', status: 'published' },
    });
    expect(created.status).toBe(201);
    await t.lodge('/auth/logout', { method: 'POST', ...full }); // revokes the demo token
    expectError(await t.lodge('/properties', full), 401, 'Unauthenticated.');
    await t.control('/limits', { method: 'POST', body: { publicPerMinute: 5 } });
    await fault({ service: 'publishing', latencyMs: 10 });

    const res = await t.control('/reset', { method: 'POST' });
    expect(res.status).toBe(200);
    expect((await t.control('/stats')).body).toMatchObject({
      publishing: { total: 0 },
      lodging: { total: 0 },
    });
    expectError(await t.pub('/auth/me', { token }), 401, 'Unauthenticated.');
    expect((await t.pub('/posts/before-reset')).status).toBe(404);
    expect((await t.lodge('/properties', full)).status).toBe(200);
    expect((await t.control('/limits')).body).toMatchObject({ publicPerMinute: 0 });
    expect((await t.control('/faults')).body).toMatchObject({ publishing: { latencyMs: 0 } });
  });

  it('describes itself at GET /', async () => {
    const res = await t.control('/');
    expect(res.body).toMatchObject({
      publishingUrl: t.mock.publishingUrl,
      lodgingUrl: t.mock.lodgingUrl,
      seed: 42,
    });
  });
});

describe('stream states', () => {
  const setStreams = (body: Record<string, unknown>) =>
    t.control('/streams', { method: 'POST', body });
  const statuses = async (tenant: string) =>
    (
      (await t.pub('/streams?per_page=50', { tenant })).body as {
        data: { slug: string; status: string; is_live: boolean; scheduled_at: string }[];
      }
    ).data;

  it('ends every stream of a tenant, then makes one live and schedules one, leaving others alone', async () => {
    expect((await setStreams({ tenant: 'harbour-times', status: 'ended' })).status).toBe(200);
    expect((await statuses('harbour-times')).every((s) => s.status === 'ended')).toBe(true);
    expect((await statuses('daily-planet')).some((s) => s.is_live)).toBe(true);

    const [first, second] = await statuses('harbour-times');
    await setStreams({ tenant: 'harbour-times', slug: first?.slug, status: 'live' });
    const at = new Date(Date.now() + 2 * 3_600_000).toISOString();
    await setStreams({ tenant: 'harbour-times', slug: second?.slug, status: 'scheduled', at });
    const after = await statuses('harbour-times');
    expect(after.filter((s) => s.is_live).map((s) => s.slug)).toEqual([first?.slug]);
    const scheduled = after.find((s) => s.slug === second?.slug);
    expect(scheduled?.status).toBe('scheduled');
    expect(Date.parse(scheduled?.scheduled_at ?? '')).toBe(Date.parse(at));

    await t.control('/reset', { method: 'POST' });
    expect((await statuses('harbour-times')).some((s) => s.is_live)).toBe(true);
  });

  it('refuses an unknown tenant, stream or state', async () => {
    expect((await setStreams({ tenant: 'nobody', status: 'live' })).status).toBe(404);
    expect(
      (await setStreams({ tenant: 'daily-planet', slug: 'nope', status: 'live' })).status,
    ).toBe(404);
    expect((await setStreams({ tenant: 'daily-planet', status: 'paused' })).status).toBe(422);
  });
});
