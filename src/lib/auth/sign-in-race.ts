import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { logWarn } from '../log/log.ts';
import { getRedis } from '../upstream/redis.ts';

/**
 * Sign-ins of one browser that overlap (a double-click on "Sign in", a second submit before the
 * first was answered): each is an upstream sign-in and a new session, but the browser holds one
 * session cookie, the one of the submit it waits for: the last. So only the last submitted keeps
 * its token. One submitted earlier that ends after a later one began stores no session; its token
 * is revoked once the later one has kept a different token (the API may hand out the same token
 * twice), and a token an earlier one kept (it ended first; its answer never reached the browser) is
 * revoked by the later one. Counted per browser (the session cookie it came with, or its address
 * and user agent without one) and account, for a minute, in Redis when configured (a double-click
 * may reach two servers), else in this process.
 */
export interface SignInRace {
  /** A sign-in is submitted: its turn. */
  begin(browser: string): Promise<number>;
  /**
   * The upstream sign-in of `turn` gave `token`: `superseded` when a later one began (keep
   * nothing), and the tokens of this browser's other sign-ins nobody holds, to revoke now.
   */
  settle(browser: string, turn: number, token: string): Promise<Settled>;
}

export interface Settled {
  superseded: boolean;
  revoke: string[];
}

const WINDOW_SECONDS = 60;

/** One browser's sign-ins to one account of one tenant (hashed: it holds a session id and an e-mail). */
export function browserKey(parts: {
  tenantId: string;
  sessionId: string | undefined;
  address: string;
  userAgent: string | null;
  email: string;
}): string {
  const who = parts.sessionId ?? `${parts.address}\n${parts.userAgent ?? ''}`;
  const raw = `${parts.tenantId}\n${who}\n${parts.email.trim().toLowerCase()}`;
  return createHash('sha256').update(raw).digest('base64url');
}

// Atomic in Redis: a later turn that began between the check and the record is never missed.
// KEYS: the turns (hash: turn, kept), the tokens dropped before anything was kept (set).
const SETTLE = `
local turn = tonumber(redis.call('HGET', KEYS[1], 'turn') or '0')
local kept = redis.call('HGET', KEYS[1], 'kept')
redis.call('EXPIRE', KEYS[2], ARGV[3])
if turn > tonumber(ARGV[1]) then
  if not kept then
    redis.call('SADD', KEYS[2], ARGV[2])
    return {1}
  end
  if kept == ARGV[2] then return {1} end
  return {1, ARGV[2]}
end
redis.call('HSET', KEYS[1], 'kept', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
local revoke = redis.call('SMEMBERS', KEYS[2])
redis.call('DEL', KEYS[2])
if kept then table.insert(revoke, kept) end
local result = {0}
for _, token in ipairs(revoke) do
  if token ~= ARGV[2] then table.insert(result, token) end
end
return result`;

interface Turns {
  turn: number;
  kept?: string;
  dropped: Set<string>;
}

/** As SETTLE, for one process. */
function settleHere(turns: Turns, turn: number, token: string): Settled {
  if (turns.turn > turn) {
    if (turns.kept === undefined) turns.dropped.add(token);
    const revoke = turns.kept !== undefined && turns.kept !== token ? [token] : [];
    return { superseded: true, revoke };
  }
  const others = [...turns.dropped, ...(turns.kept === undefined ? [] : [turns.kept])];
  turns.kept = token;
  turns.dropped.clear();
  return { superseded: false, revoke: others.filter((other) => other !== token) };
}

export function signInRace(redisUrl: string | undefined): SignInRace {
  const local = new LRUCache<string, Turns>({ max: 50_000, ttl: WINDOW_SECONDS * 1000 });
  const redisKey = (browser: string) => `masthead:auth:sign-in:${browser}`;
  const away = (error: unknown) =>
    logWarn('auth.sign_in_race.redis_unavailable', {
      message: String(error),
      effect: 'overlapping sign-ins of one browser are told apart on this server only',
    });
  const here = (browser: string): Turns => {
    const turns = local.get(browser) ?? { turn: 0, dropped: new Set<string>() };
    local.set(browser, turns);
    return turns;
  };
  const localBegin = (browser: string) => (here(browser).turn += 1);
  return {
    async begin(browser) {
      if (!redisUrl) return localBegin(browser);
      try {
        const redis = await getRedis(redisUrl);
        const turn = await redis.hincrby(redisKey(browser), 'turn', 1);
        await redis.expire(redisKey(browser), WINDOW_SECONDS);
        return turn;
      } catch (error) {
        away(error);
        // Negative: counted here, settled here.
        return -localBegin(browser);
      }
    },
    async settle(browser, turn, token) {
      if (!redisUrl || turn < 0) return settleHere(here(browser), Math.abs(turn), token);
      try {
        const redis = await getRedis(redisUrl);
        const key = redisKey(browser);
        const [superseded, ...revoke] = (await redis.eval(
          SETTLE,
          2,
          key,
          `${key}:dropped`,
          String(turn),
          token,
          String(WINDOW_SECONDS),
        )) as [number, ...string[]];
        return { superseded: superseded === 1, revoke };
      } catch (error) {
        away(error);
        return { superseded: false, revoke: [] };
      }
    },
  };
}
