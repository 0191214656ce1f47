import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { logWarn } from '../log/log.ts';
import { getRedis } from '../upstream/redis.ts';
import { BookingFailure } from './failures.ts';
import type { Confirmation } from './types.ts';
import { textKey } from '../i18n/text-key.ts';

/**
 * What the site remembers of each idempotency key (one attempt at a booking in one browser), in
 * Redis when configured so every instance knows it, else in this process:
 * - `done`: the booking it created, returned again to the same key (a double click, a retry);
 * - `unknown`: a create was sent and its outcome never arrived (5xx, timeout, dropped connection).
 *   A matching booking found later belongs to this key; to any other key it is someone else's.
 */
export type Attempt =
  | { fingerprint: string; state: 'done'; confirmation: Confirmation }
  | { fingerprint: string; state: 'unknown' };

export interface AttemptStore {
  get(key: string): Promise<Attempt | undefined>;
  set(key: string, attempt: Attempt): Promise<void>;
  delete(key: string): Promise<void>;
}

const TTL_SECONDS = 24 * 60 * 60;

export function fingerprintOf(details: unknown): string {
  return createHash('sha256').update(JSON.stringify(details)).digest('base64url');
}

/** The same key with other details: refused (a reused key must never book something else). */
export function assertSameDetails(attempt: Attempt | undefined, fingerprint: string): void {
  if (attempt && attempt.fingerprint !== fingerprint) {
    throw new BookingFailure(409, {
      code: 'conflict',
      message: textKey('booking.error.keyReused'),
    });
  }
}

export function attemptStore(options: {
  scope: string;
  redisUrl?: string | undefined;
}): AttemptStore {
  const local = new LRUCache<string, Attempt>({ max: 5000, ttl: TTL_SECONDS * 1000 });
  const { redisUrl } = options;
  const name = (key: string) =>
    `masthead:booking:attempt:${options.scope}:${createHash('sha256').update(key).digest('base64url')}`;
  let warned = false;
  // Redis away: this process's memory still protects its own visitors; say so once.
  const fallback = (error: unknown) => {
    if (warned) return;
    warned = true;
    logWarn('booking.attempts.redis_unavailable', {
      message: error instanceof Error ? error.message : String(error),
    });
  };

  return {
    async get(key) {
      if (redisUrl) {
        try {
          const raw = await (await getRedis(redisUrl)).get(name(key));
          if (raw) return JSON.parse(raw) as Attempt;
        } catch (error) {
          fallback(error);
        }
      }
      return local.get(key);
    },
    async set(key, attempt) {
      local.set(key, attempt);
      if (!redisUrl) return;
      try {
        await (await getRedis(redisUrl)).set(name(key), JSON.stringify(attempt), 'EX', TTL_SECONDS);
      } catch (error) {
        fallback(error);
      }
    },
    async delete(key) {
      local.delete(key);
      if (!redisUrl) return;
      try {
        await (await getRedis(redisUrl)).unlink(name(key));
      } catch (error) {
        fallback(error);
      }
    },
  };
}
