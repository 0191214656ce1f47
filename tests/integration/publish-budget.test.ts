import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import type { MockHandle } from '../../mock/index.ts';
import { publishingClient } from '../../src/lib/publishing/client.ts';
import type { PublishingClient } from '../../src/lib/publishing/client.ts';
import { createMetrics } from '../../src/lib/upstream/metrics.ts';
import { createUpstream } from '../../src/lib/upstream/runtime.ts';
import type { Upstream } from '../../src/lib/upstream/runtime.ts';
import { asSpare } from '../../src/lib/upstream/visitor.ts';

/**
 * Issue 35, "one publish empties the tenant", scaled down like fifty-tenants.test.ts: the mock's
 * window and the site's budget are 6 s (60 anonymous calls a window, the site spends 54, pages 48).
 * A publish invalidates every list of the tenant while readers have already spent the window:
 * each list that has a copy is served (old) rather than refused, and loading them again takes
 * only the budget's spare share, so a page that has no copy at all still gets its call.
 */
const WINDOW_SECONDS = 6;
const LISTS = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let mock: MockHandle;
let up: Upstream;
let client: PublishingClient;

beforeAll(async () => {
  mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    limits: { publicPerMinute: 60, window: 'sliding', windowSeconds: WINDOW_SECONDS },
  });
  up = createUpstream({
    metrics: createMetrics({ log: () => undefined }),
    limits: { publishingPublicPerMinute: 60 },
    windowSeconds: WINDOW_SECONDS,
  });
  client = publishingClient({
    tenantId: 'daily-planet',
    baseUrl: mock.publishingUrl,
    upstream: up,
  });
});

afterAll(async () => {
  await mock.close();
});

/** Fifty different lists a tenant's pages show (one value each in the cache). */
const list = (n: number) => client.listPosts({ page: 1, perPage: n + 1 });

describe('a publish while the budget is spent', () => {
  it(
    'serves every list that has a copy, and a post nobody read yet still gets its call',
    { timeout: 60_000 },
    async () => {
      // Readers have read fifty lists, over two windows (pages may spend 48 calls in one).
      for (let n = 0; n < LISTS; n += 1) {
        if (n === LISTS / 2) await pause(WINDOW_SECONDS * 1000 + 200);
        await list(n);
      }
      const first = (await list(0)).items[0]!.slug;
      await pause(WINDOW_SECONDS * 1000 + 200);

      // A publish: every list of the tenant is out of date, and readers ask for all of them.
      up.cache.invalidate({
        service: 'publishing',
        tenant: 'daily-planet',
        operations: ['posts.list'],
      });
      const after = await Promise.allSettled(Array.from({ length: LISTS }, (_, n) => list(n)));
      expect(after.filter((result) => result.status === 'rejected')).toEqual([]);
      // More lists than the budget's spare share could load again: those were the old copies.
      expect(up.metrics.getStatus().totals.staleBeyondWindow).toBeGreaterThan(0);

      // A post with no copy at all: the refreshes left the readers' share for it.
      const post = await client.getPost(first);
      expect(post.slug).toBe(first);
      expect(mock.state.stats.publishing.rateLimited.total).toBe(0);
    },
  );

  it(
    'leaves a spare part out rather than spend a page’s call on it',
    { timeout: 30_000 },
    async () => {
      await pause(WINDOW_SECONDS * 1000 + 200);
      // Pages spend the window down to the readers' share…
      const slugs = (await client.listPosts({ page: 1, perPage: 50 })).items.map(
        (post) => post.slug,
      );
      let spent = 0;
      for (const slug of slugs) {
        try {
          await client.getPost(slug);
          spent += 1;
        } catch {
          break;
        }
      }
      expect(spent).toBeGreaterThan(0);
      // …so a spare read with no copy (a post's related posts, its comments) is refused, not sent.
      await expect(asSpare(() => client.listPosts({ tag: 'never-read' }))).rejects.toThrow(
        /budget/,
      );
    },
  );
});
