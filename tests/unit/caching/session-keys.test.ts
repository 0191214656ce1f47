import { createStorage } from 'unstorage';
import { describe, expect, it } from 'vitest';
// Astro's own session and cookies (not exported by name): the behaviour this guards against is theirs.
import {
  AstroSession,
  PERSIST_SYMBOL,
} from '../../../node_modules/astro/dist/core/session/runtime.js';
import { AstroCookies } from '../../../node_modules/astro/dist/core/cookies/index.js';
import { deleteIfKept, dropIfEmpty } from '../../../src/lib/delivery/session-store.ts';

function visit(storage: ReturnType<typeof createStorage>, cookie?: string) {
  const request = new Request('http://daily-planet.localhost/logout', {
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
  const end = () => (session as unknown as Record<symbol, () => Promise<void>>)[PERSIST_SYMBOL]!();
  return { session, cookies, end };
}

describe('sessions are created only when something is stored', () => {
  it('a form post that stores nothing (a logout, a booking) leaves no session behind', async () => {
    const storage = createStorage();
    const { session, cookies, end } = visit(storage);
    expect(await session.get('auth:daily-planet')).toBeUndefined();
    await deleteIfKept(session, 'auth:daily-planet');
    await end();
    expect(await storage.getKeys()).toEqual([]);
    expect([...cookies.headers()]).toEqual([]);
  });

  it('still removes the key from a session that holds it', async () => {
    const storage = createStorage();
    const first = visit(storage);
    first.session.set('auth:daily-planet', { token: 't' });
    first.session.set('draft', 1);
    await first.end();
    const [id] = await storage.getKeys();
    const again = visit(storage, id);
    await deleteIfKept(again.session, 'auth:daily-planet');
    await again.end();
    const after = visit(storage, id);
    expect(await after.session.get('auth:daily-planet')).toBeUndefined();
    expect(await after.session.get('draft')).toBe(1);
  });
});

describe('a session that holds nothing any more ends', () => {
  it('is removed once its last value is taken (a form result read by its page)', async () => {
    const storage = createStorage();
    const post = visit(storage);
    post.session.set('kept:1', { result: 'signed out' });
    await post.end();
    const [id] = await storage.getKeys();
    const page = visit(storage, id);
    expect(await page.session.get('kept:1')).toEqual({ result: 'signed out' });
    page.session.delete('kept:1');
    await dropIfEmpty(page.session);
    await page.end();
    expect(await storage.getKeys()).toEqual([]);
  });

  it('keeps a session that still holds something (a subscriber’s sign-in)', async () => {
    const storage = createStorage();
    const post = visit(storage);
    post.session.set('kept:1', { result: 'comment posted' });
    post.session.set('auth:daily-planet', { token: 't' });
    await post.end();
    const [id] = await storage.getKeys();
    const page = visit(storage, id);
    await page.session.get('kept:1');
    page.session.delete('kept:1');
    await dropIfEmpty(page.session);
    await page.end();
    expect(await storage.getKeys()).toEqual([id]);
  });
});
