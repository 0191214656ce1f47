import { createHash, timingSafeEqual } from 'node:crypto';
import { consumeLimit, visitorLimiter } from './visitor-limits.ts';

/**
 * Bearer secrets (`POST /_purge`, `/_metrics`, `/_status`) against guessing from many addresses:
 * wrong guesses are counted for everyone together (per tenant, or per cluster through Redis), so
 * a thousand addresses guess no faster than one. The guess is counted before the comparison and
 * given back when it was right, so parallel guesses cannot all slip past a full count.
 */

/** Wrong guesses allowed in `GUESS_WINDOW_SECONDS`, from all addresses together. */
export const GUESSES_PER_WINDOW = 30;
const GUESS_WINDOW_SECONDS = 600;

/** The bearer token of an `Authorization` header, or undefined. */
export function bearerToken(authorization: string | null): string | undefined {
  if (!authorization?.startsWith('Bearer ')) return undefined;
  return authorization.slice('Bearer '.length).trim() || undefined;
}

/** Compares in constant time, whatever the lengths (both sides are hashed first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export type SecretCheck = 'right' | 'wrong' | { retryAfterSeconds: number };

/**
 * Whether `given` is `expected`, within the shared count of wrong guesses named `scope` (e.g.
 * `purge:daily-planet`): `{ retryAfterSeconds }` once that count is spent, for right and wrong
 * guesses alike (otherwise the answer would still tell a guesser when they are right).
 */
export async function checkSecret(input: {
  given: string;
  expected: string;
  scope: string;
  redisUrl: string | undefined;
}): Promise<SecretCheck> {
  const limiter = visitorLimiter(
    'secret-guesses',
    { points: GUESSES_PER_WINDOW, duration: GUESS_WINDOW_SECONDS },
    input.redisUrl,
  );
  const counted = await consumeLimit(limiter, input.scope);
  if (!counted.ok) return { retryAfterSeconds: counted.retryAfterSeconds };
  if (!sameSecret(input.given, input.expected)) return 'wrong';
  await (await limiter).reward(input.scope, 1).catch(() => undefined);
  return 'right';
}
