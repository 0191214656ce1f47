import { describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { demo, expectError, http, useMock } from './helpers.ts';

// The documented limits, as a site talking to the real services would see them.
const t = useMock({ limits: { publicPerMinute: 60, tokenPerMinute: 240, lodgingPerMinute: 60 } });
const lodgingToken = demo.lodging['harbour-hotels'].fullToken;

describe('rate limits', () => {
  it('sends the documented limits as headers on every response', async () => {
    const pub = await t.pub('/plans');
    expect(pub.headers.get('x-ratelimit-limit')).toBe('60');
    expect(Number(pub.headers.get('x-ratelimit-remaining'))).toBeLessThan(60);
    const token = await t.login('reader');
    const authed = await t.pub('/auth/me', { token });
    expect(authed.headers.get('x-ratelimit-limit')).toBe('240');
    expect(authed.headers.get('x-ratelimit-remaining')).toBe('239');
    const lodge = await t.lodge('/properties', { token: lodgingToken });
    expect(lodge.headers.get('x-ratelimit-limit')).toBe('60');
    expect(lodge.headers.get('x-ratelimit-remaining')).toBe('59');
    // Errors carry them too.
    expect((await t.pub('/posts/nope')).headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('answers 429 with Retry-After after 60 public requests a minute per IP', async () => {
    await t.control('/limits', { method: 'POST', body: { publicPerMinute: 60 } }); // fresh windows
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await t.pub('/plans')).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const res = await t.pub('/plans', { tenant: 'alpine-post' }); // the IP key spans tenants
    expectError(res, 429, 'Too Many Attempts.');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('counts by sliding window when asked: the calls of the last window, wherever it starts', async () => {
    const limits = { publicPerMinute: 2, window: 'sliding', windowSeconds: 2 };
    expect((await t.control('/limits', { method: 'POST', body: limits })).body).toMatchObject(
      limits,
    );
    await t.control('/stats', { method: 'DELETE' });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    expect((await t.pub('/plans')).status).toBe(200); // A at 0 s
    await wait(1200);
    expect((await t.pub('/plans')).status).toBe(200); // B at 1.2 s
    expectError(await t.pub('/plans'), 429, 'Too Many Attempts.');
    await wait(1000);
    // 2.2 s: a fixed window would have started afresh and let two through; A has left, B has not.
    expect((await t.pub('/plans')).status).toBe(200);
    const refused = await t.pub('/plans', { tenant: 'alpine-post' });
    expectError(refused, 429, 'Too Many Attempts.');
    // Room again when B leaves, at 3.2 s.
    expect(Number(refused.headers.get('retry-after'))).toBe(1);
    const stats = (await t.control('/stats')).body as {
      publishing: { rateLimited: { total: number; by: Record<string, number> } };
    };
    expect(stats.publishing.rateLimited).toEqual({
      total: 2,
      by: { 'daily-planet': 1, 'alpine-post': 1 },
    });
    await t.control('/limits', {
      method: 'POST',
      body: { publicPerMinute: 60, window: 'fixed', windowSeconds: 60 },
    });
  });

  it.each([
    ['token', 'tokenPerMinute'],
    ['lodging', 'lodgingPerMinute'],
  ] as const)(
    'applies a %s limit set at run time through the control server',
    async (kind, key) => {
      const set = await t.control('/limits', {
        method: 'POST',
        body: { publicPerMinute: 0, [key]: 3 },
      });
      expect(set.body).toMatchObject({ [key]: 3 });
      const token = kind === 'token' ? await t.login('editor') : lodgingToken;
      const call = () =>
        kind === 'token' ? t.pub('/auth/me', { token }) : t.lodge('/auth/me', { token });
      for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
      const res = await call();
      expectError(res, 429, 'Too Many Attempts.');
      expect(res.headers.get('retry-after')).toBeTruthy();
    },
  );

  it('disables a limit set to 0: no 429 and no headers', async () => {
    await t.control('/limits', {
      method: 'POST',
      body: { publicPerMinute: 0, tokenPerMinute: 0, lodgingPerMinute: 0 },
    });
    for (let i = 0; i < 70; i++) {
      const res = await t.pub('/plans');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    expect((await t.control('/limits')).body).toEqual({
      publicPerMinute: 0,
      tokenPerMinute: 0,
      lodgingPerMinute: 0,
      window: 'fixed',
      windowSeconds: 60,
    });
  });

  it('rejects invalid limits with 422', async () => {
    expect(
      (await t.control('/limits', { method: 'POST', body: { publicPerMinute: -1 } })).status,
    ).toBe(422);
  });

  it('reads limits from MOCK_LIMIT_* at start', async () => {
    process.env['MOCK_LIMIT_PUBLIC'] = '2';
    process.env['MOCK_LIMIT_LODGING'] = '0';
    try {
      const m = await startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0 });
      try {
        const get = () => http(`${m.publishingUrl}/plans`, { tenant: 'daily-planet' });
        expect((await get()).headers.get('x-ratelimit-limit')).toBe('2');
        await get();
        expect((await get()).status).toBe(429);
        const lodge = await http(`${m.lodgingUrl}/properties`, { token: lodgingToken });
        expect(lodge.headers.get('x-ratelimit-limit')).toBeNull();
        expect(m.state.limits).toEqual({
          publicPerMinute: 2,
          tokenPerMinute: 240,
          lodgingPerMinute: 0,
          window: 'fixed',
          windowSeconds: 60,
        });
      } finally {
        await m.close();
      }
    } finally {
      delete process.env['MOCK_LIMIT_PUBLIC'];
      delete process.env['MOCK_LIMIT_LODGING'];
    }
  });
});
