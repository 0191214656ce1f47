import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { getRedis, warnRedisAway } from './redis.ts';

/**
 * Mutual exclusion per key: in this process always, and across every instance sharing `redisUrl`
 * (SET NX with a TTL, released only by its holder). If Redis is away the process-local lock still
 * holds, and one warning says so. Waiters queue; one that waits longer than `waitMs` gets
 * `LockTimeoutError`. A holder that dies leaves the key to expire after `ttlMs`.
 *
 * Why not redlock: its quorum over several independent Redis masters is not what one `REDIS_URL`
 * needs; it has no process-local queue (waiters on one instance would all poll Redis) and fails
 * when Redis is away, where this lock must still hold within the process. What it would replace
 * is one `SET NX PX` and a compare-and-delete script.
 */

export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
}

interface LockOptions {
  redisUrl?: string | undefined;
  /** Key prefix in Redis. */
  prefix?: string;
  /** Longest a holder keeps the lock if it never releases it (crash): longer than any holder runs. */
  ttlMs?: number;
  /** Longest a caller waits for the lock. */
  waitMs?: number;
}

/** Poll interval while another instance holds the lock. */
const POLL_MS = 25;

// Deletes the key only if it still holds our token (not a later holder's after our TTL ran out).
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export function createKeyedLock(options: LockOptions = {}) {
  const { redisUrl, prefix = 'masthead:lock:', ttlMs = 60_000, waitMs = 20_000 } = options;
  const tails = new Map<string, Promise<void>>();
  const away = (url: string, error: unknown) =>
    warnRedisAway(
      url,
      'lock.redis_unavailable',
      error,
      'process-local lock only until Redis answers again',
    );

  /** Waits for the local queue; resolves with a release function. */
  async function local(key: string, deadline: number): Promise<() => void> {
    const previous = tails.get(key) ?? Promise.resolve();
    const { promise: mine, resolve: release } = Promise.withResolvers<void>();
    const tail = previous.then(() => mine);
    tails.set(key, tail);
    const done = () => {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
    });
    const outcome = await Promise.race([previous.then(() => 'ok' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      // Our place in the queue passes on as soon as the ones before us are done.
      void previous.then(done);
      throw new LockTimeoutError(`waited too long for ${key}`);
    }
    return done;
  }

  /** Takes the shared lock; resolves with a release function (a no-op when Redis is away). */
  async function shared(url: string, key: string, deadline: number): Promise<() => Promise<void>> {
    const token = randomUUID();
    const name = prefix + key;
    for (;;) {
      let acquired: boolean;
      try {
        const redis = await getRedis(url);
        acquired = (await redis.set(name, token, 'PX', ttlMs, 'NX')) === 'OK';
      } catch (error) {
        away(url, error);
        return async () => {};
      }
      if (acquired) {
        return async () => {
          try {
            await (await getRedis(url)).eval(RELEASE, 1, name, token);
          } catch (error) {
            away(url, error); // it expires after ttlMs
          }
        };
      }
      if (Date.now() + POLL_MS > deadline) throw new LockTimeoutError(`waited too long for ${key}`);
      await pause(POLL_MS);
    }
  }

  return {
    async run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const deadline = Date.now() + waitMs;
      const releaseLocal = await local(key, deadline);
      try {
        const releaseShared = redisUrl ? await shared(redisUrl, key, deadline) : undefined;
        try {
          return await task();
        } finally {
          await releaseShared?.();
        }
      } finally {
        releaseLocal();
      }
    },
  };
}
