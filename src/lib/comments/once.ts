import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { LockTimeoutError, createKeyedLock } from '../upstream/lock.ts';
import { guardedRedis } from '../upstream/redis.ts';
import type { CommentOutcome, PostOnce } from './post.ts';

/**
 * A comment's idempotency key (a hidden field of CommentForm.astro; the publishing API has no
 * `Idempotency-Key`): each created comment is remembered for an hour under its key and what was
 * posted, in Redis when configured, else in this process, so the same post again (a double click,
 * a retry, Back and submit) answers the first comment; a keyed lock makes two at once one. While a
 * configured Redis does not answer, a post is refused (`unavailable`) before it reaches the upstream,
 * as for bookings: another server could not see its key.
 */

/** The shared store of posted keys did not answer: the post is refused, to be sent again. */
class PostedStoreUnavailable extends Error {
  override name = 'PostedStoreUnavailable';
}

/**
 * How long a posted comment's key is remembered: the repeats it stops (a double click, a retry of a
 * lost answer, Back and submit) come within minutes; a day made the store grow with every comment.
 */
const REMEMBER_SECONDS = 60 * 60;

/**
 * How long a post whose answer was lost (`unconfirmed`: it may have been stored) is remembered: a
 * second click waiting behind the first is told the same instead of posting it again; after this
 * the reader, who was asked to check the thread first, may send it again.
 */
const UNCONFIRMED_SECONDS = 60;

/**
 * The name a posted comment is remembered under: its key with everything that makes it this
 * reader's comment (tenant, post, who posts, what, where in the thread). A page from a shared
 * cache gives many readers one key; their different comments stay different.
 */
export function rememberedName(parts: {
  tenant: string;
  post: string;
  key: string;
  author: string;
  content: string;
  parentId: string;
}): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** Redis when `redisUrl` is set (every server), with this process's memory beneath it. */
export function postedStore(redisUrl: string | undefined) {
  const local = new LRUCache<string, CommentOutcome>({ max: 5000, ttl: REMEMBER_SECONDS * 1000 });
  const redisKey = (name: string) => `masthead:comments:posted:${name}`;
  const shared = guardedRedis(
    redisUrl ?? '',
    'comments.posted.redis_unavailable',
    'comment posts refused (503, try again shortly) until Redis answers again',
    (cause) => new PostedStoreUnavailable('posted comments cannot be read', { cause }),
  );
  return {
    async get(name: string): Promise<CommentOutcome | undefined> {
      const known = local.get(name);
      if (known || !redisUrl) return known;
      const raw = await shared((redis) => redis.get(redisKey(name)));
      return raw ? (JSON.parse(raw) as CommentOutcome) : undefined;
    },
    async set(name: string, outcome: CommentOutcome, seconds = REMEMBER_SECONDS): Promise<void> {
      local.set(name, outcome, { ttl: seconds * 1000 });
      if (!redisUrl) return;
      await shared((redis) =>
        redis.set(redisKey(name), JSON.stringify(outcome), 'EX', seconds),
      ).catch(() => undefined);
    },
  };
}

/** Posts once per remembered name, across every server sharing `redisUrl` (`PostOnce`). */
export function postOnce(redisUrl: string | undefined): PostOnce {
  const store = postedStore(redisUrl);
  const lock = createKeyedLock({
    redisUrl,
    prefix: 'masthead:comments:posting:',
    ttlMs: 30_000,
    waitMs: 15_000,
  });
  return async (name, post, refused) => {
    try {
      return await lock.run(name, async () => {
        const known = await store.get(name);
        if (known) return known;
        const outcome = await post();
        if (outcome.ok) await store.set(name, outcome);
        else if (outcome.kind === 'unconfirmed')
          await store.set(name, outcome, UNCONFIRMED_SECONDS);
        return outcome;
      });
    } catch (error) {
      if (error instanceof LockTimeoutError) return refused.busy();
      if (error instanceof PostedStoreUnavailable) return refused.unavailable();
      throw error;
    }
  };
}
