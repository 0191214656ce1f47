import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishingClient } from '../../src/lib/publishing/client.ts';
import { NotFoundError, RateLimitedError, TimeoutError } from '../../src/lib/upstream/errors.ts';
import { createUpstream, runForVisitor } from '../../src/lib/upstream/runtime.ts';
import type { Upstream } from '../../src/lib/upstream/runtime.ts';
import { createMetrics } from '../../src/lib/upstream/metrics.ts';
import { ctl, startTestMock } from './harness.ts';
import type { Mock } from './harness.ts';

// The mock at its documented limits (60 anonymous reads a minute per IP), no read tokens: every
// tenant of the server shares one anonymous budget, as in production without publishing.tokenEnv.
let mock: Mock;
beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 60 });
});
afterAll(async () => {
  await ctl.clearFaults(mock);
  await mock.close();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function quietUpstream(options: Parameters<typeof createUpstream>[0] = {}): Upstream {
  return createUpstream({ metrics: createMetrics({ log: () => undefined }), ...options });
}

const client = (up: Upstream, tenantId: string) =>
  publishingClient({ tenantId, baseUrl: mock.publishingUrl, upstream: up });

/** Runs `read` as one page render of `visitor`, and says whether the visitor got a page. */
async function page(
  up: Upstream,
  ip: string,
  userAgent: string,
  read: () => Promise<unknown>,
): Promise<'served' | 'not-found' | 'refused'> {
  try {
    await runForVisitor(up, ip, userAgent, read);
    return 'served';
  } catch (error) {
    if (error instanceof NotFoundError) return 'not-found';
    if (error instanceof RateLimitedError || error instanceof TimeoutError) return 'refused';
    throw error;
  }
}

describe('a fair upstream budget', () => {
  it('a random-URL flood on one tenant leaves another tenant’s uncached pages < 1 % failed', async () => {
    // Real slugs of the second tenant, read before the flood on fresh mock windows.
    const slugs = (
      await client(quietUpstream(), 'harbour-times').listPosts({ perPage: 40 })
    ).items.map((post) => post.slug);
    expect(slugs.length).toBeGreaterThanOrEqual(30);
    await ctl.limits(mock, { publicPerMinute: 60 });

    const up = quietUpstream();
    const flooded = client(up, 'daily-planet');
    const other = client(up, 'harbour-times');
    const crawler: Promise<string>[] = [];
    const humans: Promise<string>[] = [];
    // 200 random unknown URLs from a crawler (spread over addresses), interleaved with 30 readers
    // of the other tenant opening 30 distinct, uncached posts.
    for (let i = 0; i < 200; i += 1) {
      crawler.push(
        page(up, `66.249.0.${i % 250}`, CRAWLER, () => flooded.getPost(`no-such-post-${i}`)),
      );
      if (i % 6 === 0 && humans.length < 30) {
        const slug = slugs[humans.length] ?? '';
        humans.push(page(up, `10.0.0.${humans.length}`, BROWSER, () => other.getPost(slug)));
      }
      if (i % 10 === 0) await Promise.all(crawler.slice(-10));
    }
    const humanResults = await Promise.all(humans);
    const crawlerResults = await Promise.all(crawler);

    const failed = humanResults.filter((result) => result !== 'served').length;
    expect(humanResults.length).toBe(30);
    expect(failed / humanResults.length).toBeLessThan(0.01);
    expect(crawlerResults.filter((result) => result === 'refused').length).toBeGreaterThan(100);
    const totals = up.metrics.getStatus().totals;
    expect(totals.rateLimited429).toBe(0);
    expect(totals.visitorRejected).toBeGreaterThan(0);
  });

  it('a flood from a loopback address (a local proxy without TRUST_PROXY) spends its share only', async () => {
    await ctl.limits(mock, { publicPerMinute: 60 });
    const up = quietUpstream();
    const flooded = client(up, 'daily-planet');
    const flood = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        page(up, '127.0.0.1', BROWSER, () => flooded.getPost(`loopback-flood-${i}`)),
      ),
    );
    expect(flood.filter((result) => result === 'refused').length).toBeGreaterThan(40);
    const other = client(up, 'alpine-post');
    const readers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        page(up, `198.51.100.${i + 1}`, BROWSER, () => other.getPost(`reader-${i}`)),
      ),
    );
    expect(readers.every((result) => result === 'not-found')).toBe(true);
  });

  it('the same unknown URL, asked again and again, costs one upstream call', async () => {
    await ctl.limits(mock, { publicPerMinute: 60 });
    await ctl.reset(mock);
    const up = quietUpstream();
    const pub = client(up, 'daily-planet');
    for (let i = 0; i < 10; i += 1) {
      expect(await page(up, `10.1.0.${i}`, BROWSER, () => pub.getPost('missing-post'))).toBe(
        'not-found',
      );
    }
    expect((await ctl.stats(mock)).publishing.routes['GET /posts/{slug}']).toBe(1);
  });

  it('with a 15-second upstream delay, a cold page gives up at its deadline, not after 3 × 8 s', async () => {
    await ctl.limits(mock, { publicPerMinute: 60 });
    const up = quietUpstream({ pageDeadlineMs: 1000 });
    const pub = client(up, 'alpine-post');
    await ctl.faults(mock, { service: 'publishing', latencyMs: 15_000 });
    const started = performance.now();
    // A cold home page: the two post lists in parallel, then the header's categories.
    const outcome = await page(up, '10.2.0.1', BROWSER, async () => {
      await Promise.all([
        pub.listPosts({ featured: true, perPage: 3 }),
        pub.listPosts({ perPage: 10 }),
      ]);
    });
    const categories = await page(up, '10.2.0.1', BROWSER, () => pub.listCategories());
    const waited = performance.now() - started;
    await ctl.clearFaults(mock);
    expect(outcome).toBe('refused');
    expect(categories).toBe('refused');
    // Each page waits about its 1 s deadline; the old behaviour waited 24 s per call. The bound is
    // far from both, so machine load cannot flip it.
    expect(waited).toBeLessThan(7_500);
  });
});
