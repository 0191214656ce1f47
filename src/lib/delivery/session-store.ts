import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AstroSession } from 'astro';
import { settings } from '../settings/settings.ts';
import { getRedis, warnRedisAway } from '../upstream/redis.ts';

/**
 * The session cookie's name (`session.cookie` in astro.config.mjs). A request that carries it is
 * personal to the route cache (./route-cache.ts) and to the edge (deploy/nginx/masthead.conf, which
 * cannot import it: tests/unit/delivery/session-store.test.ts keeps the two the same).
 */
export const SESSION_COOKIE = 'astro-session';

/** What Astro's session runtime calls on its driver (the rest of unstorage's interface is unused). */
export interface SessionStore {
  name: string;
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/**
 * Sessions in Redis, shared by every server with the same `REDIS_URL`: a sign-in on one is honoured
 * by the others. Each read slides the expiry (GETEX), so Redis itself removes idle sessions.
 */
export function redisSessionStore(url: string, ttlSeconds: number): SessionStore {
  const key = (id: string) => `masthead:session:${id}`;
  return {
    name: 'masthead-redis-session',
    async getItem(id) {
      try {
        return await (await getRedis(url)).getex(key(id), 'EX', ttlSeconds);
      } catch (error) {
        // Redis away: the visitor reads as signed out until it is back, pages still render.
        warnRedisAway(url, 'session.redis.read_failed', error, 'visitors read as signed out');
        return null;
      }
    },
    async setItem(id, value) {
      await (await getRedis(url)).set(key(id), value, 'EX', ttlSeconds);
    },
    async removeItem(id) {
      await (await getRedis(url)).unlink(key(id));
    },
  };
}

// Astro only hands over ids it generated (UUIDs); anything else must never become a path.
const SAFE_ID = /^[A-Za-z0-9-]+$/;

/**
 * Sessions as files under `base` (one server only). A read slides the expiry by touching the file;
 * an expired file is removed when read, and `sweep()` removes the ones nobody reads again.
 */
export function fileSessionStore(
  base: string,
  ttlSeconds: number,
  now: () => number = Date.now,
): SessionStore & { sweep(): Promise<number> } {
  const path = (id: string) => {
    if (!SAFE_ID.test(id)) throw new Error('Invalid session id');
    return join(base, id);
  };
  const expired = (mtimeMs: number) => now() - mtimeMs > ttlSeconds * 1000;
  return {
    name: 'masthead-file-session',
    async getItem(id) {
      try {
        const file = path(id); // an id that is no UUID reads as no session
        const info = await stat(file);
        if (expired(info.mtimeMs)) {
          await rm(file, { force: true });
          return null;
        }
        const at = new Date(now());
        await utimes(file, at, at);
        return await readFile(file, 'utf8');
      } catch {
        return null;
      }
    },
    async setItem(id, value) {
      await mkdir(base, { recursive: true });
      await writeFile(path(id), value);
    },
    async removeItem(id) {
      if (SAFE_ID.test(id)) await rm(path(id), { force: true });
    },
    async sweep() {
      let removed = 0;
      const names = await readdir(base).catch((): string[] => []);
      for (const name of names) {
        if (!SAFE_ID.test(name)) continue;
        const info = await stat(join(base, name)).catch(() => null);
        if (info?.isFile() && expired(info.mtimeMs)) {
          await rm(join(base, name), { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}

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

/**
 * Removes `key` from the visitor's session only when it is there. Astro's `session.delete` marks
 * the session changed even for a visitor who has none, and then stores an empty session under a
 * new id no cookie names: one stored session per logout, booking or comment from a stranger, kept
 * for `SESSION_TTL_SECONDS`. Reading (`has`) creates nothing: a visitor without the cookie costs
 * no storage at all. Sessions are created only when something is stored (`set`, `regenerate`).
 */
export async function deleteIfKept(
  session: Pick<AstroSession, 'has' | 'delete'> | undefined,
  key: string,
): Promise<void> {
  if (session && (await session.has(key))) session.delete(key);
}

/**
 * Ends a session that holds nothing any more (a form's kept result taken by its GET, a sign-out):
 * otherwise each stays stored, empty, for `SESSION_TTL_SECONDS` (bench/store.md).
 */
export async function dropIfEmpty(
  session: { keys(): Promise<Iterator<string>>; destroy(): void } | undefined,
): Promise<void> {
  if (session && (await session.keys()).next().done) session.destroy();
}
