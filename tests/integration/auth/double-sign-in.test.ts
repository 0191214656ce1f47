import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
// Astro's own session and cookies (not exported by name), as tests/unit/caching/session-keys.test.ts.
import {
  AstroSession,
  PERSIST_SYMBOL,
} from '../../../node_modules/astro/dist/core/session/runtime.js';
import { AstroCookies } from '../../../node_modules/astro/dist/core/cookies/index.js';
import { revoke, signIn } from '../../../src/lib/auth/account.ts';
import { beginSignIn, getSignedIn, startLatestSession } from '../../../src/lib/auth/session.ts';
import type { SignedIn } from '../../../src/lib/auth/session.ts';
import { signInRace, type SignInRace } from '../../../src/lib/auth/sign-in-race.ts';
import { classify, isSignedOut } from '../../../src/lib/failures/classify.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { closeRedis } from '../../../src/lib/upstream/redis.ts';
import { PASSWORD, freshUpstream, startTestMock } from '../harness.ts';
import type { Mock } from '../harness.ts';
import { startRedisServer, type RedisServer } from '../redis-server.ts';

// A double-click on "Sign in": two sign-ins of one browser at once, each an upstream sign-in and a
// new session. The browser keeps one cookie (the last submit's); the other token must not stay
// valid upstream in a session nobody holds.
let mock: Mock;
let redis: RedisServer;
beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 0, tokenPerMinute: 0 });
  redis = await startRedisServer();
});
afterAll(async () => {
  await closeRedis();
  await redis.stop();
  await mock.close();
});

const TENANT = 'daily-planet';
const EMAIL = 'reader@masthead.test';
const client = () =>
  publishingClient({
    tenantId: TENANT,
    baseUrl: mock.publishingUrl,
    upstream: freshUpstream({ http: { maxRetries: 0, timeoutMs: 1000 } }).up,
  });

function visit(storage: ReturnType<typeof createStorage>) {
  // No cookie: the first sign-in of a browser (a double-click sends both posts without one).
  const request = new Request('http://daily-planet.localhost/login', { method: 'POST' });
  const session = new AstroSession({
    cookies: new AstroCookies(request, console),
    config: { driver: 'memory' },
    runtimeMode: 'production',
    mockStorage: storage,
    logger: console,
  } as never);
  const end = async () => {
    await (session as unknown as Record<symbol, () => Promise<void>>)[PERSIST_SYMBOL]!();
    return session.sessionID;
  };
  return { session, end };
}

async function honoured(token: string): Promise<boolean> {
  try {
    await client().withToken(token).me({ fresh: true });
    return true;
  } catch (error) {
    if (isSignedOut(classify(error))) return false;
    throw error;
  }
}

/** One sign-in post, as the login action runs it, in steps the test interleaves. */
function submit(
  storage: ReturnType<typeof createStorage>,
  turns: SignInRace,
  revoking: Promise<unknown>[],
) {
  const tab = visit(storage);
  const browser = 'one-browser';
  const begun = beginSignIn(browser, turns);
  let signedIn: SignedIn | undefined;
  return {
    upstream: async () => {
      signedIn = await signIn(client(), EMAIL, PASSWORD);
      return signedIn.token;
    },
    finish: async () => {
      await startLatestSession(tab.session, TENANT, signedIn!, await begun, (dropped) =>
        revoking.push(revoke(client(), dropped)),
      );
      return tab.end();
    },
  };
}

describe('two sign-ins of one browser at once', () => {
  // Two servers on one Redis: the two posts of a double-click may reach different ones.
  const sharedRedis = (): [SignInRace, SignInRace] => [
    signInRace(redis.url),
    signInRace(redis.url),
  ];
  const oneProcess = (): [SignInRace, SignInRace] => {
    const turns = signInRace(undefined);
    return [turns, turns];
  };

  it.each([
    ['the first ends first', oneProcess, ['first', 'second']],
    ['the second ends first', oneProcess, ['second', 'first']],
    ['the first ends first, on two servers', sharedRedis, ['first', 'second']],
    ['the second ends first, on two servers', sharedRedis, ['second', 'first']],
  ] as const)('keeps the last submitted and revokes the other (%s)', async (_case, race, order) => {
    const storage = createStorage();
    const revoking: Promise<unknown>[] = [];
    const [one, two] = race();
    const first = submit(storage, one, revoking);
    const second = submit(storage, two, revoking);
    const tokens = { first: await first.upstream(), second: await second.upstream() };
    const ids: Record<string, string | undefined> = {};
    for (const which of order) ids[which] = await (which === 'first' ? first : second).finish();
    await Promise.all(revoking);

    // The browser holds the cookie of the post it waits for: the second.
    expect((await getSignedIn(visit(storage).session, TENANT))?.token).toBeUndefined();
    const held = new AstroSession({
      cookies: new AstroCookies(
        new Request('http://daily-planet.localhost/', {
          headers: { cookie: `astro-session=${ids['second']}` },
        }),
        console,
      ),
      config: { driver: 'memory' },
      runtimeMode: 'production',
      mockStorage: storage,
      logger: console,
    } as never);
    expect((await getSignedIn(held, TENANT))?.token).toBe(tokens.second);
    expect(await honoured(tokens.second)).toBe(true);
    // Before: still valid upstream, in a session nobody holds.
    expect(await honoured(tokens.first)).toBe(false);
  });

  it('a sign-in that ended before the next one began is revoked by it (its answer never arrived)', async () => {
    const storage = createStorage();
    const revoking: Promise<unknown>[] = [];
    const turns = signInRace(undefined);
    const first = submit(storage, turns, revoking);
    const early = await first.upstream();
    await first.finish();
    const second = submit(storage, turns, revoking);
    const late = await second.upstream();
    await second.finish();
    await Promise.all(revoking);
    expect(await honoured(late)).toBe(true);
    expect(await honoured(early)).toBe(false);
  });
});
