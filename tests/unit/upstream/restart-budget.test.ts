/**
 * A restart inside a window is not a new window: a server without Redis that sent a window's
 * allowance, restarted and read again in the same minute would send that allowance a second time,
 * and the upstream, which counted the first, answers 429 to every call beyond it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { budgetKeys } from '../../../src/lib/upstream/budget.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';

const key = budgetKeys.publishingPublic('http://127.0.0.1:4000/api/v1');
const limits = { publishingPublicPerMinute: 10 };
const dirs: string[] = [];

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'masthead-restart-budget-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Calls `take` lets through until it refuses (at most twice the limit). */
async function sent(up: ReturnType<typeof createUpstream>): Promise<number> {
  let calls = 0;
  while (calls < 20 && (await up.budget.take(key, 'write')).ok) calls += 1;
  return calls;
}

it('a restarted server on the same cache folder sends nothing more in the same window', async () => {
  const dir = cacheDir();
  const before = createUpstream({ cache: { diskDir: dir }, limits, safetyRatio: 1 });
  expect(await sent(before)).toBe(10);

  const after = createUpstream({ cache: { diskDir: dir }, limits, safetyRatio: 1 });
  expect(await sent(after)).toBe(0);
  const refused = await after.budget.take(key, 'write');
  expect(refused).toMatchObject({ ok: false });
  if (!refused.ok) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
});

it('a 429 the server heard before its restart still holds after it', async () => {
  const dir = cacheDir();
  const before = createUpstream({ cache: { diskDir: dir }, limits, safetyRatio: 1 });
  await before.budget.observe(key, { rateLimited: true });
  expect(await sent(createUpstream({ cache: { diskDir: dir }, limits, safetyRatio: 1 }))).toBe(0);
});

it('starts afresh from a missing or damaged file, and without a cache folder', async () => {
  const dir = cacheDir();
  writeFileSync(join(dir, 'budget.json'), '{"not": "a log"');
  expect(await sent(createUpstream({ cache: { diskDir: dir }, limits, safetyRatio: 1 }))).toBe(10);
  expect(await sent(createUpstream({ limits, safetyRatio: 1 }))).toBe(10);
  expect(
    await sent(createUpstream({ cache: { diskDir: cacheDir() }, limits, safetyRatio: 1 })),
  ).toBe(10);
});
