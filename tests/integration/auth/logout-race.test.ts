import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
// Astro's own session and cookies (not exported by name), as tests/unit/caching/session-keys.test.ts.
import {
  AstroSession,
  PERSIST_SYMBOL,
} from '../../../node_modules/astro/dist/core/session/runtime.js';
import { AstroCookies } from '../../../node_modules/astro/dist/core/cookies/index.js';
import { getSignedIn, signOut, startSession, takeSignOut } from '../../../src/lib/auth/session.ts';
import type { SignedIn } from '../../../src/lib/auth/session.ts';
import { signedOutTokens } from '../../../src/lib/auth/signed-out.ts';
import { dropIfEmpty, fileSessionStore } from '../../../src/lib/delivery/session-store.ts';
import { closeRedis } from '../../../src/lib/upstream/redis.ts';
import { startRedisServer } from '../redis-server.ts';

// A logout in one tab and a slow request of another tab on the same session, through Astro's
// session runtime and the site's own session driver (files, as without REDIS_URL).
const TENANT = { id: 'daily-planet', publishing: { baseUrl: 'https://api.example.com/api/v1' } };
/** The tenant's link origin (`tenantOrigin`) in development. */
const ORIGIN = 'http://daily-planet.localhost';
const signedIn: SignedIn = {
  token: 'token-1',
  user: { id: 7, name: 'Riley Reader', roles: ['subscriber'], hasActiveSubscription: false },
};
let base: string;
let storage: ReturnType<typeof createStorage>;
/** How far the session store's clock is ahead of the real one (an idle reader's days away). */
let idleMs = 0;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'masthead-sessions-'));
  idleMs = 0;
  // As Astro builds it from `session.driver` (src/lib/delivery/session-store.ts).
  const driver = fileSessionStore(base, 3600, () => Date.now() + idleMs);
  storage = createStorage({ driver: { ...driver, hasItem: () => false, getKeys: () => [] } });
});
afterEach(() => rm(base, { recursive: true, force: true }));

/** The cookies a browser holds, by name. */
type Jar = Record<string, string>;

/** One request with the browser's cookies; `end` persists as Astro does after the response. */
function visit(jar: Jar = {}) {
  const cookie = Object.entries(jar)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  const request = new Request('http://daily-planet.localhost/', {
    headers: cookie ? { cookie } : {},
  });
  const cookies = new AstroCookies(request, console);
  const session = new AstroSession({
    cookies,
    config: { driver: 'masthead-file-session' },
    runtimeMode: 'production',
    mockStorage: storage,
    logger: console,
  } as never);
  /** Persists, and gives the cookies the browser holds after this response. */
  const end = async (): Promise<Jar> => {
    await (session as unknown as Record<symbol, () => Promise<void>>)[PERSIST_SYMBOL]!();
    const held = { ...jar };
    for (const header of cookies.headers()) {
      const [pair = ''] = header.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(header)) delete held[name];
      else held[name] = value;
    }
    return held;
  };
  return { session, cookies, end };
}

/** Whether a comment sent with these cookies is told its reader was signed out. */
function told(jar?: Jar): Promise<boolean> {
  const { session, cookies } = visit(jar);
  return takeSignOut(session, cookies, TENANT);
}

describe('a logout in one tab and a slow request in another', () => {
  it('stays signed out when the slow request writes the session after the logout', async () => {
    const login = visit();
    await startSession(login.session, login.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    let cookie = await login.end();

    // Tab A: a signed-in comment post starts; the upstream is slow.
    const slow = visit(cookie);
    expect(await getSignedIn(slow.session, TENANT)).not.toBeNull();

    // Tab B: logs out (the action keeps its result for the 303's page, which takes it).
    const logout = visit(cookie);
    await signOut(logout.session, TENANT);
    logout.session.set('kept:b', { result: 'signed out' }, { ttl: 60 });
    cookie = await logout.end();
    const page = visit(cookie);
    await page.session.get('kept:b');
    page.session.delete('kept:b');
    await dropIfEmpty(page.session);
    cookie = await page.end();

    // Tab A's answer arrives: its result is kept for its own 303.
    slow.session.set('kept:a', { result: 'comment posted' }, { ttl: 60 });
    cookie = await slow.end();

    expect(await getSignedIn(visit(cookie).session, TENANT)).toBeNull();
  });

  it('a logout changes the session cookie, so the browser can tell its pages are out of date', async () => {
    const login = visit();
    await startSession(login.session, login.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    const before = await login.end();
    const logout = visit(before);
    await signOut(logout.session, TENANT);
    const after = await logout.end();
    expect(after['astro-session']).toBeDefined();
    expect(after['astro-session']).not.toBe(before['astro-session']);
    expect(await getSignedIn(visit(after).session, TENANT)).toBeNull();
  });

  it('a sign-in that gets the same token again after a logout is honoured', async () => {
    const first = visit();
    await startSession(first.session, first.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    const cookie = await first.end();
    const logout = visit(cookie);
    await signOut(logout.session, TENANT);
    await logout.end();

    const again = visit();
    await startSession(again.session, again.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    const stored = await getSignedIn(visit(await again.end()).session, TENANT);
    expect(stored?.token).toBe(signedIn.token);
  });

  it('a tab still showing the signed-in form learns of the logout once; a new sign-in forgets it', async () => {
    const login = visit();
    await startSession(login.session, login.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    let cookie = await login.end();
    const logout = visit(cookie);
    await signOut(logout.session, TENANT);
    cookie = await logout.end();

    const comment = visit(cookie);
    expect(await takeSignOut(comment.session, comment.cookies, TENANT)).toBe(true);
    cookie = await comment.end();
    expect(await told(cookie)).toBe(false);

    // Logged out, then in again: a later comment is the signed-in reader's, nothing to tell.
    const again = visit(cookie);
    await startSession(again.session, again.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    cookie = await again.end();
    const out = visit(cookie);
    await signOut(out.session, TENANT);
    cookie = await out.end();
    const back = visit(cookie);
    await startSession(back.session, back.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    cookie = await back.end();
    expect(await told(cookie)).toBe(false);
  });
});

describe('the sign-in mark cookie', () => {
  it.each([
    ['https://dailyplanet.example.com', true],
    ['http://daily-planet.localhost', false],
  ])('on %s is Secure: %s (as the session cookie, never sent in clear)', async (origin, secure) => {
    const login = visit();
    await startSession(login.session, login.cookies, TENANT, signedIn, origin, () => undefined);
    const mark = [...login.cookies.headers()].find((header) =>
      header.startsWith('masthead-signed-in='),
    );
    expect(mark).toContain('HttpOnly');
    expect(/;\s*Secure/i.test(mark ?? '')).toBe(secure);
  });
});

describe('signed-out tokens with REDIS_URL', () => {
  it('a logout on one server is honoured by the others', async () => {
    const redis = await startRedisServer();
    try {
      const one = signedOutTokens(redis.url, 60);
      const other = signedOutTokens(redis.url, 60);
      await one.add('token-9');
      expect(await other.has('token-9')).toBe(true);
      expect(await other.has('token-10')).toBe(false);
      await other.remove('token-9');
      expect(await signedOutTokens(redis.url, 60).has('token-9')).toBe(false);
    } finally {
      await closeRedis();
      await redis.stop();
    }
  });
});

describe('a session that expired while the post was open', () => {
  it('a tab still showing the signed-in form learns that its reader was signed out', async () => {
    const login = visit();
    await startSession(login.session, login.cookies, TENANT, signedIn, ORIGIN, () => undefined);
    const cookie = await login.end();

    idleMs = 3601 * 1000; // idle past the store's time to live (SESSION_TTL_SECONDS)
    const comment = visit(cookie);
    expect(await getSignedIn(comment.session, TENANT)).toBeNull();
    expect(await takeSignOut(comment.session, comment.cookies, TENANT)).toBe(true);
  });

  it('a guest never signed in, or with a live session, has nothing to learn', async () => {
    expect(await told()).toBe(false);
    const guest = visit();
    guest.session.set('kept:a', { result: 'booking held' });
    const cookie = await guest.end();
    expect(await told(cookie)).toBe(false);
  });

  it('a guest whose session expired (a booking weeks ago) is a guest still, not told of a sign-out', async () => {
    const guest = visit();
    guest.session.set('kept:a', { result: 'booking held' });
    const cookie = await guest.end();
    idleMs = 3601 * 1000;
    // Before: told "You are no longer signed in", never having signed in.
    expect(await told(cookie)).toBe(false);
  });
});
