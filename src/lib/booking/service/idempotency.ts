import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { RETRY_AFTER_SECONDS } from '../../delivery/policy.ts';
import type { Redis } from 'ioredis';
import { guardedRedis } from '../../upstream/redis.ts';
import { refusal, unavailable } from '../domain/failures.ts';
import type { Confirmation } from './lodging-shapes.ts';
import { textKey } from '../../i18n/text-key.ts';

/**
 * What the site remembers of each idempotency key, in Redis when configured (else this process):
 * `done` returns its booking again; `unknown` (the create's answer never arrived) keeps the guest
 * record it was sent with, where a retry looks first. With Redis, Redis is the guard: while it
 * does not answer, steps get a 503; after it comes back empty, `mayHaveForgotten` makes the service
 * look for the key in the bookings themselves (create.ts, `keyMark`).
 */
export type Attempt =
  | { fingerprint: string; state: 'done'; confirmation: Confirmation }
  /** Turned away as the same stay booked moments ago: only "book another room" goes on. */
  | { fingerprint: string; state: 'same-stay' }
  | {
      fingerprint: string;
      state: 'unknown';
      guestId?: string;
      notes?: string | undefined;
      /** When the create's answer was lost (ms): until it settles, a retry only looks for it. */
      lostAt?: number;
    };

const TTL_SECONDS = 24 * 60 * 60;

/** The claim that a booking's confirmation e-mail went out (../mail/send.ts): one per reference. */
export const mailClaim = (reference: string): string => `mail:${reference}`;

export function fingerprintOf(details: unknown): string {
  return createHash('sha256').update(JSON.stringify(details)).digest('base64url');
}

/** The same key with other details: refused (a reused key must never book something else). */
export function assertSameDetails(attempt: Attempt | undefined, fingerprint: string): void {
  if (attempt && attempt.fingerprint !== fingerprint) {
    throw refusal(409, 'conflict', textKey('booking.error.keyReused'));
  }
}

export function attemptStore(options: { scope: string; redisUrl?: string | undefined }) {
  const local = new LRUCache<string, Attempt>({ max: 5000, ttl: TTL_SECONDS * 1000 });
  const booked = new LRUCache<string, true>({ max: 5000, ttl: 60_000 });
  /** This process's claims, and the bookings it made (`made:<reference>`). */
  const claims = new LRUCache<string, true>({ max: 5000, ttl: TTL_SECONDS * 1000 });
  const { redisUrl } = options;
  const name = (key: string) =>
    `masthead:booking:attempt:${options.scope}:${createHash('sha256').update(key).digest('base64url')}`;
  /** A read or write the step needs (with Redis): Redis away refuses the step, its form kept. */
  const shared = guardedRedis(
    redisUrl ?? '',
    'booking.attempts.redis_unavailable',
    'bookings and their e-mails refused (503) until Redis answers again',
    () => unavailable(textKey('booking.error.unavailable'), RETRY_AFTER_SECONDS),
  );
  /** Best effort (a lost mark only makes a later step stricter or shorter): failures are logged. */
  const tryShared = async (write: (redis: Redis) => Promise<unknown>) => {
    if (redisUrl) await shared(write).catch(() => undefined);
  };
  const startedAt = Date.now();

  return {
    async get(key: string): Promise<Attempt | undefined> {
      if (!redisUrl) return local.get(key);
      return shared(async (redis) => {
        const raw = await redis.get(name(key));
        // This process's memory too: it outlives a Redis that came back empty.
        return raw ? (JSON.parse(raw) as Attempt) : local.get(key);
      });
    },
    async set(key: string, attempt: Attempt): Promise<void> {
      local.set(key, attempt);
      if (redisUrl)
        await shared((redis) => redis.set(name(key), JSON.stringify(attempt), 'EX', TTL_SECONDS));
    },
    /** Remembers for `seconds` that the stay `stayKey` was just booked. */
    async markBooked(stayKey: string, seconds: number): Promise<void> {
      booked.set(stayKey, true, { ttl: seconds * 1000 });
      await tryShared((redis) => redis.set(name(`stay:${stayKey}`), '1', 'EX', seconds));
    },
    async justBooked(stayKey: string): Promise<boolean> {
      if (booked.has(stayKey)) return true;
      if (!redisUrl) return false;
      return (await shared((redis) => redis.exists(name(`stay:${stayKey}`)))) === 1;
    },
    /** True for the first caller only (per name, across instances with Redis): an e-mail sent once. */
    async claim(claimName: string): Promise<boolean> {
      const key = `claim:${claimName}`;
      // This process's own claims first: they outlive a Redis that came back empty.
      if (claims.has(key)) return false;
      if (redisUrl) {
        const set = await shared((redis) => redis.set(name(key), '1', 'EX', TTL_SECONDS, 'NX'));
        if (set !== 'OK') return false;
      }
      claims.set(key, true);
      return true;
    },
    /** Gives a claim back (the e-mail could not be sent: a retry may send it). */
    async release(claimName: string): Promise<void> {
      const key = `claim:${claimName}`;
      claims.delete(key);
      await tryShared((redis) => redis.unlink(name(key)));
    },
    async delete(key: string): Promise<void> {
      local.delete(key);
      await tryShared((redis) => redis.unlink(name(key)));
    },
    /** Notes that this process made the booking `reference` (its create call succeeded here). */
    made: (reference: string) => void claims.set(`made:${reference}`, true),
    /** Only the process that made a booking mails it, even after Redis forgot who did. */
    madeHere: (reference: string) => claims.has(`made:${reference}`),
    /** True while the store's memory is younger than a key's lifetime (started or emptied lately). */
    async mayHaveForgotten(): Promise<boolean> {
      if (!redisUrl) return Date.now() - startedAt < TTL_SECONDS * 1000;
      return shared(async (redis) => {
        // The first instance after an empty start writes the time; every later one reads it.
        await redis.set(name('since'), String(Date.now()), 'NX');
        const since = Number(await redis.get(name('since')));
        return !(Date.now() - since >= TTL_SECONDS * 1000);
      });
    },
  };
}
