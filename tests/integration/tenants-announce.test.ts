/**
 * A server that does not watch its tenants file (`TENANTS_WATCH=false`) learns of a reload from the
 * other servers' announcements on Redis. One made while it was not subscribed (it was starting, or
 * Redis was away) reaches no one: each time its subscription starts it reads its file once more.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  announceTenantsReload,
  listenForInvalidations,
  onTenantsAnnounced,
} from '../../src/lib/freshness/bus.ts';
import { forgetSettings } from '../../src/lib/settings/settings.ts';
import { closeRedis } from '../../src/lib/upstream/redis.ts';
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

it('reads the tenants file again whenever its subscription starts, so no announcement is missed', async () => {
  let reloads = 0;
  onTenantsAnnounced(() => (reloads += 1));
  // Another server announced a reload before this one listened.
  await announceTenantsReload();
  await listenForInvalidations();
  await expect.poll(() => reloads, { timeout: 10_000 }).toBe(1);

  // Redis restarts (empty): whatever was announced meanwhile reached no subscriber.
  const port = Number(new URL(redis.url).port);
  await redis.stop();
  redis = await startRedisServer(port);
  await expect.poll(() => reloads, { timeout: 10_000 }).toBe(2);
});
