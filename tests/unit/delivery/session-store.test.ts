import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSessionStore, SESSION_COOKIE } from '../../../src/lib/delivery/session-store.ts';

const ID = '0b7c0c53-3a55-4b8e-9f5f-2f0e6f0b8d11';
const OTHER = '5d1f3a2e-8c4b-4a7e-b1d2-6e9f0a3c7b55';
let dir: string;
let now: number;

/** Sets a session file's last use `secondsAgo` before the store's clock. */
const lastUsed = (id: string, secondsAgo: number) => {
  const at = new Date(now - secondsAgo * 1000);
  utimesSync(join(dir, id), at, at);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-sessions-'));
  now = Date.now();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('fileSessionStore', () => {
  it('keeps a session used within its lifetime, and each read extends it', async () => {
    const store = fileSessionStore(dir, 60, () => now);
    await store.setItem(ID, '{"auth":1}');
    lastUsed(ID, 50);
    expect(await store.getItem(ID)).toBe('{"auth":1}');
    now += 50_000;
    expect(await store.getItem(ID)).toBe('{"auth":1}');
  });

  it('forgets a session idle longer than its lifetime', async () => {
    const store = fileSessionStore(dir, 60, () => now);
    await store.setItem(ID, '{"auth":1}');
    lastUsed(ID, 61);
    expect(await store.getItem(ID)).toBeNull();
  });

  it('sweeps idle sessions nobody reads again, and keeps the others', async () => {
    const store = fileSessionStore(dir, 60, () => now);
    await store.setItem(ID, 'old');
    await store.setItem(OTHER, 'recent');
    lastUsed(ID, 120);
    expect(await store.sweep()).toBe(1);
    expect(await store.getItem(OTHER)).toBe('recent');
    expect(await store.getItem(ID)).toBeNull();
  });

  it('never turns an id into a path outside its folder', async () => {
    const store = fileSessionStore(dir, 60, () => now);
    expect(await store.getItem('../../etc/passwd')).toBeNull();
    await expect(store.setItem('../escape', 'x')).rejects.toThrow('Invalid session id');
  });
});

describe('the session cookie', () => {
  // Before: the name was written by hand here and there; a fork that renamed it in Astro's config
  // had the edge cache share signed-in readers' pages.
  it('is the one the shipped edge config treats as personal', () => {
    const config = readFileSync(
      new URL('../../../deploy/nginx/masthead.conf', import.meta.url),
      'utf8',
    );
    const map =
      /map \$http_cookie \$masthead_session_cookie \{[^}]*"~\(\^\|;\)\\s\*([\w-]+)=" 1;/.exec(
        config,
      );
    expect(map?.[1]).toBe(SESSION_COOKIE);
  });
});
