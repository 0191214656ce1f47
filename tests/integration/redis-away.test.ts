/**
 * What each Redis user falls back to while Redis is away is said once per outage (and again in the
 * next one), never once per failed command: a session read and a signed-out check happen on every
 * request, so a line each would flood the log for as long as Redis is down.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signedOutTokens } from '../../src/lib/auth/signed-out.ts';
import { postedStore } from '../../src/lib/comments/once.ts';
import { redisSessionStore } from '../../src/lib/delivery/session-store.ts';
import { recordEdgeAddress } from '../../src/lib/freshness/edge.ts';
import { redirectLogLines } from '../../src/lib/log/log.ts';
import { createKeyedLock } from '../../src/lib/upstream/lock.ts';
import { closeRedis, getRedis } from '../../src/lib/upstream/redis.ts';
import { startRedisServer } from './redis-server.ts';

const lines: string[] = [];
const restoreLog = redirectLogLines((line) => lines.push(line));
const said = (event: string) => lines.filter((line) => line.includes(`"${event}"`)).length;

afterEach(async () => {
  restoreLog();
  await closeRedis();
});

async function untilReady(url: string): Promise<void> {
  const redis = await getRedis(url);
  for (let i = 0; redis.status !== 'ready'; i += 1) {
    if (i > 200) throw new Error('Redis did not reconnect');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('Redis going away, for its users', () => {
  it('says each fallback once per outage, not once per failed command', async () => {
    let server = await startRedisServer();
    const port = Number(new URL(server.url).port);
    const sessions = redisSessionStore(server.url, 60);
    const signedOut = signedOutTokens(server.url, 60);
    const lock = createKeyedLock({ redisUrl: server.url });
    const posted = postedStore(server.url);
    const useAll = async () => {
      await sessions.getItem('visitor');
      await signedOut.has('token');
      await lock.run('stay', () => Promise.resolve());
      await posted.get('comment').catch(() => undefined);
      // Each page the edge keeps is noted in the background (a new path each time): a turn to fail.
      const path = `/posts/${lines.length}`;
      recordEdgeAddress('t', { host: 'news.example', path, encoding: 'br', tags: [] }, server.url);
      await new Promise(setImmediate);
    };
    try {
      await useAll();
      await server.stop();
      for (let i = 0; i < 3; i += 1) await useAll();
      const events = [
        'session.redis.read_failed',
        'auth.signed_out.redis_unavailable',
        'lock.redis_unavailable',
        'comments.posted.redis_unavailable',
        'freshness.edge.record_failed',
      ];
      expect(events.map(said)).toEqual([1, 1, 1, 1, 1]);

      server = await startRedisServer(port);
      await untilReady(server.url);
      await useAll();
      await server.stop();
      for (let i = 0; i < 3; i += 1) await useAll();
      expect(events.map(said)).toEqual([2, 2, 2, 2, 2]);
    } finally {
      await server.stop();
    }
  });
});
