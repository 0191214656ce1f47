import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWrongCredentials, signIn } from '../../../src/lib/auth/account.ts';
import { TooManyAttemptsError, withinAttempts } from '../../../src/lib/auth/attempts.ts';
import { publishingClient } from '../../../src/lib/publishing/client.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { createUpstream, runForVisitor } from '../../../src/lib/upstream/runtime.ts';
import type { Upstream } from '../../../src/lib/upstream/runtime.ts';
import { ctl, startTestMock } from '../harness.ts';
import type { Mock } from '../harness.ts';

// Bursts of sign-in POSTs from one address against the mock at its documented limits.
let mock: Mock;
beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 60 });
});
afterAll(() => mock.close());

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';

const quietUpstream = (): Upstream =>
  createUpstream({ metrics: createMetrics({ log: () => undefined }), http: { maxRetries: 0 } });

const client = (up: Upstream, tenantId: string) =>
  publishingClient({ tenantId, baseUrl: mock.publishingUrl, upstream: up });

async function loginCalls(): Promise<number> {
  return (await ctl.stats(mock)).publishing.routes['POST /auth/login'] ?? 0;
}

describe('sign-in bursts', () => {
  it('40 parallel wrong logins from one address reach the upstream at most the limit (10)', async () => {
    await ctl.reset(mock);
    await ctl.limits(mock, { publicPerMinute: 600 });
    const up = quietUpstream();
    const limiter = new RateLimiterMemory({ points: 10, duration: 900 });
    const before = await loginCalls();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        runForVisitor(up, '203.0.113.7', BROWSER, () =>
          withinAttempts(
            limiter,
            '203.0.113.7',
            () => signIn(client(up, 'daily-planet'), 'reader@masthead.test', 'guess'),
            isWrongCredentials,
          ),
        ),
      ),
    );
    expect(await loginCalls()).toBe(before + 10);
    const refused = results.filter(
      (r) => r.status === 'rejected' && r.reason instanceof TooManyAttemptsError,
    );
    expect(refused).toHaveLength(30);
  });

  it('a burst of POSTs spends its sender’s share, not the reads of another tenant', async () => {
    await ctl.reset(mock);
    const slugs = (
      await client(quietUpstream(), 'harbour-times').listPosts({ perPage: 10 })
    ).items.map((post) => post.slug);
    await ctl.limits(mock, { publicPerMinute: 60 });
    const up = quietUpstream();
    // 60 parallel POSTs (wrong logins, any form) from one address, no form limit in the way.
    await Promise.allSettled(
      Array.from({ length: 60 }, () =>
        runForVisitor(up, '203.0.113.8', BROWSER, () =>
          client(up, 'daily-planet').login('reader@masthead.test', 'guess'),
        ),
      ),
    );
    expect(await loginCalls()).toBeLessThanOrEqual(Math.ceil(54 * 0.25));
    // Then ten readers open uncached pages on another tenant: every one is served.
    const other = client(up, 'harbour-times');
    const pages = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        runForVisitor(up, `198.51.100.${i + 1}`, BROWSER, () => other.getPost(slugs[i] ?? '')),
      ),
    );
    expect(pages.filter((p) => p.status === 'rejected')).toEqual([]);
  });
});
