import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis } from '../../../src/lib/upstream/redis.ts';
import { createKeyedLock } from '../../../src/lib/upstream/lock.ts';
import { startRedisServer } from '../redis-server.ts';
import type { RedisServer } from '../redis-server.ts';
import {
  bookingsIn,
  control,
  day,
  request,
  serviceFor,
  startDialect,
  uniqueEmail,
} from './fixture.ts';
import type { Mock } from './fixture.ts';

// Two site instances (own upstream, cache, memory) behind a load balancer, sharing one Redis: the
// creation lock and the idempotency memory must hold across them.
let mock: Mock;
let redis: RedisServer;

beforeAll(async () => {
  [mock, redis] = await Promise.all([startDialect('default'), startRedisServer()]);
});
afterAll(async () => {
  await closeRedis();
  await redis?.stop();
  await mock?.close();
});

describe('booking with REDIS_URL set', () => {
  it('ten simultaneous posts spread over two instances book once', async () => {
    const a = serviceFor(mock.lodgingUrl, { redisUrl: redis.url }).service;
    const b = serviceFor(mock.lodgingUrl, { redisUrl: redis.url }).service;
    const base = request({ checkIn: day(190), checkOut: day(192), email: uniqueEmail('redis') });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).book({ ...base, idempotencyKey: `redislock${i}${Date.now()}00000` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(bookingsIn(mock, base.email, base.checkIn, base.checkOut)).toHaveLength(1);
  });

  it('a retry that lands on the other instance after "saved, then 500" gets the same booking', async () => {
    const a = serviceFor(mock.lodgingUrl, { redisUrl: redis.url }).service;
    const b = serviceFor(mock.lodgingUrl, { redisUrl: redis.url }).service;
    const input = request({ checkIn: day(195), checkOut: day(196), email: uniqueEmail('hop') });
    await control(mock, 'POST', '/faults', {
      service: 'lodging',
      savedThen500: true,
      savedThen500Route: 'POST /bookings',
      savedThen500Times: 1,
    });
    const first = await a.book(input);
    const confirmation = await b.book(input);
    expect(confirmation.reference).toBe(first.reference);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });

  it('the lock is held in Redis while a holder runs, and released after', async () => {
    const admin = new Redis(redis.url);
    try {
      const lock = createKeyedLock({ redisUrl: redis.url, prefix: 'test:lock:' });
      let seen: string | null = null;
      await lock.run('k', async () => {
        seen = await admin.get('test:lock:k');
      });
      expect(seen).toEqual(expect.any(String));
      expect(await admin.get('test:lock:k')).toBeNull();
    } finally {
      admin.disconnect();
    }
  });
});
