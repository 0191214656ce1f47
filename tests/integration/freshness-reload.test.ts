/**
 * A tenant moved to another publishing API by a reload of the tenants file, with Redis: its change
 * watcher starts again (src/lib/freshness/watch-all.ts) and its first look must compare with what
 * the new API listed, never with the old API's list the last watcher left in Redis.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { watchTenant } from '../../src/lib/freshness/watcher.ts';
import { logger, redirectLogLines } from '../../src/lib/log/log.ts';
import { forgetSettings } from '../../src/lib/settings/settings.ts';
import type { PublishingClient } from '../../src/lib/publishing/client.ts';
import { budgetKeys } from '../../src/lib/upstream/budget.ts';
import { closeRedis } from '../../src/lib/upstream/redis.ts';
import { buildTenant } from '../fixtures/tenant.ts';
import { freshUpstream } from './harness.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
  vi.stubEnv('REDIS_URL', redis.url);
  forgetSettings();
});
afterAll(async () => {
  await closeRedis();
  await redis.stop();
  vi.unstubAllEnvs();
  forgetSettings();
});

type Listed = Awaited<ReturnType<PublishingClient['listPosts']>>;
/** An API's newest posts: ids from `first`, all published long before the watcher started. */
const postsOf = (first: number): Listed =>
  ({
    items: [0, 1, 2].map((n) => ({
      id: first + n,
      slug: `story-${first + n}`,
      published_at: '2020-01-0' + String(n + 1) + 'T08:00:00Z',
      updated_at: null,
      tags: [],
    })),
  }) as unknown as Listed;

it('a tenant moved to another API sees none of the new API’s posts as new or the old one’s as vanished', async () => {
  const courier = buildTenant({ id: 'courier', hosts: ['courier.example.com'] });
  const moved = buildTenant({
    ...courier,
    publishing: { baseUrl: 'https://b.example.com/api/v1' },
  });
  const { up } = freshUpstream();
  const lines: string[] = [];
  const restore = redirectLogLines((line) => lines.push(line));
  const level = logger.level;
  logger.level = 'info';
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  /** Watches `tenant` until its API was listed `looks` times, then stops. */
  const watch = async (tenant: typeof courier, listed: Listed, looks: number) => {
    let calls = 0;
    const watcher = watchTenant({
      tenant,
      tenantsSharing: () => 1,
      upstream: up,
      budgetKey: budgetKeys.publishingPublic(tenant.publishing.baseUrl),
      publishing: {
        listPosts: () => {
          calls += 1;
          return Promise.resolve(listed);
        },
      },
    });
    // Fake time moves the watcher's clock; Redis answers in real time, so each step also waits for
    // a real I/O turn, for up to 30 real seconds (a loaded CI machine answers slowly).
    const deadline = performance.now() + 30_000;
    const step = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      await new Promise((resolve) => setImmediate(resolve));
    };
    while (calls < looks && performance.now() < deadline) await step(1000);
    // The look's own work after its read (stored in Redis, changes applied).
    for (let i = 0; i < 20; i++) await step(10);
    watcher.stop();
    expect(calls).toBe(looks);
  };
  try {
    await watch(courier, postsOf(1), 2);
    await watch(moved, postsOf(101), 2);
    expect(lines.filter((line) => line.includes('"freshness.changes"'))).toEqual([]);
  } finally {
    vi.useRealTimers();
    logger.level = level;
    restore();
  }
}, 60_000);
