import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { guardedRedis } from '../upstream/redis.ts';

/**
 * Tokens signed out on this site (a logout, a sign-in that replaced them), never honoured from a
 * session again. Astro writes a request's whole session at its end, so a request of another tab
 * that read the session before a logout and stores something after it (a form's result, the
 * account page's refresh) puts the signed-out token back under the same cookie. Kept for a
 * session's lifetime, by hash, in Redis when configured (every server), else in this process.
 */
export type SignedOutTokens = ReturnType<typeof signedOutTokens>;

export function signedOutTokens(redisUrl: string | undefined, ttlSeconds: number) {
  const local = new LRUCache<string, true>({ max: 50_000, ttl: ttlSeconds * 1000 });
  const name = (token: string) => createHash('sha256').update(token).digest('base64url');
  const redisKey = (hash: string) => `masthead:auth:signed-out:${hash}`;
  // Redis away: warned once, then each call falls back to this server's memory.
  const shared = guardedRedis(
    redisUrl ?? '',
    'auth.signed_out.redis_unavailable',
    'a logout is remembered on this server only until Redis answers again',
    (cause) => new Error('Redis away', { cause }),
  );
  return {
    async add(token: string): Promise<void> {
      const hash = name(token);
      local.set(hash, true);
      if (redisUrl)
        await shared((redis) => redis.set(redisKey(hash), '1', 'EX', ttlSeconds)).catch(
          () => undefined,
        );
    },
    /** A sign-in the API answered with this token again: it is honoured again. */
    async remove(token: string): Promise<void> {
      const hash = name(token);
      local.delete(hash);
      if (redisUrl) await shared((redis) => redis.unlink(redisKey(hash))).catch(() => undefined);
    },
    async has(token: string): Promise<boolean> {
      const hash = name(token);
      if (local.has(hash) || !redisUrl) return local.has(hash);
      // Redis away: the session store is the same Redis, so such a session reads as signed out.
      return shared(async (redis) => (await redis.exists(redisKey(hash))) > 0).catch(() => false);
    },
  };
}
