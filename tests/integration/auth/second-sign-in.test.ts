import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
// Astro's own session and cookies (not exported by name), as tests/unit/caching/session-keys.test.ts.
import {
  AstroSession,
  PERSIST_SYMBOL,
} from '../../../node_modules/astro/dist/core/session/runtime.js';
import { AstroCookies } from '../../../node_modules/astro/dist/core/cookies/index.js';
import { revoke, signIn } from '../../../src/lib/auth/account.ts';
import { getSignedIn, startSession } from '../../../src/lib/auth/session.ts';
import type { SignedIn } from '../../../src/lib/auth/session.ts';
import { classify, isSignedOut } from '../../../src/lib/failures/classify.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { PASSWORD, ctl, freshUpstream, startTestMock } from '../harness.ts';
import type { Mock } from '../harness.ts';

// Signing in again while signed in (a second tab): the session takes the new token, and the one
// it replaces is revoked upstream (the contract's logout), in the background.
let mock: Mock;
beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 0, tokenPerMinute: 0 });
});
afterAll(() => mock.close());

const TENANT = { id: 'daily-planet', publishing: { baseUrl: 'https://api.example.com/api/v1' } };
/** The tenant's link origin (`tenantOrigin`) in development. */
const ORIGIN = 'http://daily-planet.localhost';
const client = () =>
  publishingClient({
    tenantId: TENANT.id,
    baseUrl: mock.publishingUrl,
    upstream: freshUpstream({ http: { maxRetries: 0, timeoutMs: 1000 } }).up,
  });

function visit(storage: ReturnType<typeof createStorage>, cookie?: string) {
  const request = new Request('http://daily-planet.localhost/login', {
    method: 'POST',
    headers: cookie ? { cookie: `astro-session=${cookie}` } : {},
  });
  const cookies = new AstroCookies(request, console);
  const session = new AstroSession({
    cookies,
    config: { driver: 'memory' },
    runtimeMode: 'production',
    mockStorage: storage,
    logger: console,
  } as never);
  const end = async () => {
    await (session as unknown as Record<symbol, () => Promise<void>>)[PERSIST_SYMBOL]!();
    return session.sessionID;
  };
  return { session, cookies, end };
}

/** Whether the API still honours `token`. */
async function honoured(token: string): Promise<boolean> {
  try {
    await client().withToken(token).me({ fresh: true });
    return true;
  } catch (error) {
    if (isSignedOut(classify(error))) return false;
    throw error;
  }
}

describe('a second sign-in', () => {
  it('keeps the new token and revokes the one it replaced', async () => {
    const storage = createStorage();
    const revoking: Promise<unknown>[] = [];
    const replaced = (previous: SignedIn) => revoking.push(revoke(client(), previous));

    const first = await signIn(client(), 'reader@masthead.test', PASSWORD);
    const tabOne = visit(storage);
    await startSession(tabOne.session, tabOne.cookies, TENANT, first, ORIGIN, replaced);
    const id = await tabOne.end();

    const second = await signIn(client(), 'reader@masthead.test', PASSWORD);
    const tabTwo = visit(storage, id);
    await startSession(tabTwo.session, tabTwo.cookies, TENANT, second, ORIGIN, replaced);
    const newId = await tabTwo.end();
    await Promise.all(revoking);

    expect((await getSignedIn(visit(storage, newId).session, TENANT))?.token).toBe(second.token);
    expect(await honoured(second.token)).toBe(true);
    expect(await honoured(first.token)).toBe(false);
  });

  it('a first sign-in revokes nothing; a failed revoke never fails the sign-in', async () => {
    const storage = createStorage();
    const replaced: SignedIn[] = [];
    const signedIn = await signIn(client(), 'reader@masthead.test', PASSWORD);
    const tab = visit(storage);
    await startSession(tab.session, tab.cookies, TENANT, signedIn, ORIGIN, (previous) =>
      replaced.push(previous),
    );
    await tab.end();
    expect(replaced).toEqual([]);

    await ctl.faults(mock, { service: 'publishing', down: true });
    try {
      await expect(revoke(client(), signedIn)).resolves.toBe(false);
    } finally {
      await ctl.clearFaults(mock);
    }
    expect(await honoured(signedIn.token)).toBe(true);
  });
});
