import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { logWarn } from '../log/log.ts';
import { LockTimeoutError, createKeyedLock } from '../upstream/lock.ts';
import { getRedis } from '../upstream/redis.ts';
import type { CommentOutcome, PostOnce } from './post.ts';

/**
 * A comment carries an idempotency key, as a booking does: a hidden field minted when the form
 * renders (src/components/comments/CommentForm.astro). The publishing API's contract says nothing
 * of an `Idempotency-Key` header, so the site remembers each posted comment under its key (and
 * what was posted, since a cached page hands one key to many readers) for an hour, in Redis when
 * configured so every server knows it, else in this process: the same key posted again (a double
 * click, a retry of a lost answer, Back and submit) answers the first comment, and no second one
 * reaches the upstream. Posts of the same key wait for each other (a keyed lock), so two at once
 * make one comment too. Only created comments are remembered: a refused post may be sent again.
 *
 * With Redis configured, Redis is the guard (as for bookings, src/lib/booking/idempotency.ts): while
 * it does not answer, a post is refused with "try again shortly" (`unavailable`) before it reaches
 * the upstream, since another server could not see its key (and this one forgets it on restart).
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

export interface PostedStore {
  get(name: string): Promise<CommentOutcome | undefined>;
  set(name: string, outcome: CommentOutcome): Promise<void>;
}

/** Redis when `redisUrl` is set (every server), with this process's memory beneath it. */
export function postedStore(redisUrl: string | undefined): PostedStore {
  const local = new LRUCache<string, CommentOutcome>({ max: 5000, ttl: REMEMBER_SECONDS * 1000 });
  const redisKey = (name: string) => `masthead:comments:posted:${name}`;
  let warned = false;
  const away = (error: unknown) => {
    if (warned) return;
    warned = true;
    logWarn('comments.posted.redis_unavailable', {
      message: String(error),
      effect: 'comment posts refused (503, try again shortly) until Redis answers again',
    });
  };
  return {
    async get(name) {
      const known = local.get(name);
      if (known || !redisUrl) return known;
      let raw: string | null;
      try {
        raw = await (await getRedis(redisUrl)).get(redisKey(name));
      } catch (error) {
        away(error);
        throw new PostedStoreUnavailable('posted comments cannot be read', { cause: error });
      }
      return raw ? (JSON.parse(raw) as CommentOutcome) : undefined;
    },
    async set(name, outcome) {
      local.set(name, outcome);
      if (!redisUrl) return;
      try {
        await (
          await getRedis(redisUrl)
        ).set(redisKey(name), JSON.stringify(outcome), 'EX', REMEMBER_SECONDS);
      } catch (error) {
        away(error);
      }
    },
  };
}

export function postOnce(store: PostedStore, redisUrl: string | undefined): PostOnce {
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
        return outcome;
      });
    } catch (error) {
      if (error instanceof LockTimeoutError) return refused.busy();
      if (error instanceof PostedStoreUnavailable) return refused.unavailable();
      throw error;
    }
  };
}
