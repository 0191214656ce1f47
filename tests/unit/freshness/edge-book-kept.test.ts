/**
 * The edge's address book outlives a restart only in Redis (docs/deploy.md, "The edge"): a server
 * that purges an edge without `REDIS_URL` says at start that a restart forgets what the edge kept.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

beforeAll(() => {
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('WATCH_CHANGES', 'false');
  vi.stubEnv('EDGE_PURGE_URL', 'http://127.0.0.1:9/_edge_purge');
});

afterAll(() => vi.unstubAllEnvs());

it('warns at start that the book is kept in memory only, naming REDIS_URL', async () => {
  const { redirectLogLines } = await import('../../../src/lib/log/log.ts');
  const { startFreshness } = await import('../../../src/lib/freshness/start.ts');
  const lines: string[] = [];
  const restore = redirectLogLines((line) => lines.push(line));
  try {
    startFreshness();
  } finally {
    restore();
  }
  const warned = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(warned).toContainEqual(
    expect.objectContaining({
      level: 'warn',
      event: 'freshness.edge.book_in_memory',
      hint: expect.stringContaining('REDIS_URL') as unknown,
    }),
  );
});
