import { settings } from '../settings/settings.ts';
import { fileSessionStore, redisSessionStore } from './session-store.ts';
import type { SessionStore } from './session-store.ts';

/** Hourly at most: removes file sessions nobody came back for. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Astro's session driver (`session.driver` in astro.config.mjs), chosen when the server starts, not
 * at build time: Redis when `REDIS_URL` is set (several servers), files under `base` otherwise.
 */
export default function sessionDriver(config: { base: string }): SessionStore {
  // SESSION_TTL_SECONDS: two weeks without a visit signs a subscriber out (each visit extends it).
  const { SESSION_TTL_SECONDS: ttl, REDIS_URL: redisUrl } = settings();
  if (redisUrl) return redisSessionStore(redisUrl, ttl);
  const store = fileSessionStore(config.base, ttl);
  const sweep = () => void store.sweep().catch(() => undefined);
  sweep();
  setInterval(sweep, Math.min(SWEEP_EVERY_MS, ttl * 1000)).unref();
  return store;
}
