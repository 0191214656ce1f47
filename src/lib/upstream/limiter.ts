import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { getRedis } from './redis.ts';

export interface LimiterSettings {
  points: number;
  /** Window in seconds. */
  duration: number;
  keyPrefix: string;
}

/**
 * A limiter shared through Redis when `redisUrl` is set (every server counts together), with an
 * in-memory insurance limiter while Redis is away; in memory otherwise.
 */
export function sharedLimiter(
  settings: LimiterSettings,
  redisUrl: string | undefined,
): Promise<RateLimiterAbstract> {
  if (!redisUrl) return Promise.resolve(new RateLimiterMemory(settings));
  return getRedis(redisUrl).then(
    (storeClient) =>
      new RateLimiterRedis({
        ...settings,
        storeClient,
        // While Redis is away (not connected, or a command fails or times out), each instance
        // counts on its own in memory rather than refusing everyone or no one; for the upstream
        // budget N instances may then send up to N times our share, and its 429s cap the rest.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(settings),
      }),
  );
}
