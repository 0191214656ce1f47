import { LRUCache } from 'lru-cache';
import { BookingFailure } from './failures.ts';

/**
 * One booking per idempotency key (a double click, a retry after a timeout): the same key with the
 * same details gets the first attempt's result; with other details, a 409.
 */
export function idempotentAttempts<T>() {
  const attempts = new LRUCache<string, { fingerprint: string; result: Promise<T> }>({
    max: 5000,
    ttl: 24 * 60 * 60 * 1000,
  });

  return function once(key: string, details: unknown, run: () => Promise<T>): Promise<T> {
    const fingerprint = JSON.stringify(details);
    const known = attempts.get(key);
    if (known) {
      if (known.fingerprint !== fingerprint) {
        throw new BookingFailure(409, {
          code: 'conflict',
          message: 'This booking was already sent with other details. Please reload and try again.',
        });
      }
      return known.result;
    }
    const result = run().catch((error: unknown) => {
      // Failed attempts may be retried with the same key (the duplicate check guards them).
      attempts.delete(key);
      throw error;
    });
    attempts.set(key, { fingerprint, result });
    return result;
  };
}
