import { settings } from '../settings/settings.ts';
import { getRedis } from '../upstream/redis.ts';

/**
 * Whether the session store takes a kept result now: Redis when `REDIS_URL` is set (the session
 * driver's, src/lib/delivery/session-store.ts), which may be away; files otherwise, always there.
 */
export async function sessionsAnswer(): Promise<boolean> {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return true;
  try {
    await (await getRedis(REDIS_URL)).ping();
    return true;
  } catch {
    return false;
  }
}
