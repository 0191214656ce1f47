import { beforeEach, describe, expect, it } from 'vitest';
import { publishingClient } from '../../src/lib/publishing/client.ts';
import { RateLimitedError } from '../../src/lib/upstream/errors.ts';
import type { Upstream } from '../../src/lib/upstream/runtime.ts';
import { ctl, freshUpstream, PASSWORD, useMock } from './harness.ts';

const mock = useMock({ reset: true });

beforeEach(async () => {
  await ctl.clearFaults(mock);
});

const client = (up: Upstream, tenantId = 'daily-planet', token?: string) =>
  publishingClient({ tenantId, baseUrl: mock.publishingUrl, upstream: up, token });

describe('cache against the mock', () => {
  it('100 concurrent identical reads → 1 upstream call', async () => {
    const { up } = freshUpstream();
    await ctl.faults(mock, { service: 'publishing', latencyMs: 50 });
    const pub = client(up);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => pub.listPosts({ category: 'news' })),
    );
    expect(new Set(results.map((r) => r.items[0]?.slug)).size).toBe(1);
    const stats = await ctl.stats(mock);
    expect(stats.publishing.routes['GET /posts']).toBe(1);
    expect(up.metrics.getStatus().totals).toMatchObject({ misses: 1, coalesced: 99 });
  });

  it('serves the stale value while the upstream is down, refreshes when it is back', async () => {
    let clock = Date.now();
    const { up } = freshUpstream({ now: () => clock });
    const pub = client(up);
    const first = await pub.listPlans();

    await ctl.faults(mock, { service: 'publishing', down: true });
    clock += 11 * 60 * 1000; // past fresh (10 min), inside stale (1 h): SWR serves at once
    expect(await pub.listPlans()).toEqual(first);
    await up.cache.settle(); // the background refresh fails: value kept
    clock += 2 * 60 * 60 * 1000; // past stale, inside errorGrace: stale-if-error
    expect(await pub.listPlans()).toEqual(first);
    expect(up.metrics.getStatus().totals.staleServes).toBe(2);
    expect(up.metrics.getStatus().totals.errors['NetworkError']).toBeGreaterThan(0);

    await ctl.faults(mock, { service: 'publishing', down: false });
    const before = (await ctl.stats(mock)).publishing.routes['GET /plans'] ?? 0;
    await pub.listPlans(); // still expired: a real refresh
    expect((await ctl.stats(mock)).publishing.routes['GET /plans']).toBe(before + 1);
    await pub.listPlans(); // now fresh again
    expect((await ctl.stats(mock)).publishing.routes['GET /plans']).toBe(before + 1);
  });

  it('the same slug in two tenants never mixes', async () => {
    const { up } = freshUpstream();
    const slug = 'welcome-to-our-new-website';
    const [daily, harbour, daily2] = await Promise.all([
      client(up, 'daily-planet').getPost(slug),
      client(up, 'harbour-times').getPost(slug),
      client(up, 'daily-planet').getPost(slug),
    ]);
    expect(daily.content).toContain('Daily Planet');
    expect(harbour.content).toContain('Harbour Times');
    expect(daily2).toEqual(daily);
    expect((await client(up, 'harbour-times').getPost(slug)).content).toBe(harbour.content);
    const stats = await ctl.stats(mock);
    expect(stats.publishing.routes['GET /posts/{slug}']).toBe(2);
  });

  it("a subscriber's edition pages never reach an anonymous request", async () => {
    const { up } = freshUpstream();
    const anon = client(up);
    const { token } = await anon.login('subscriber@masthead.test', PASSWORD);
    const subscriber = client(up, 'daily-planet', token);
    const paid = (await anon.listEditions({ perPage: 50 })).items.find((e) => !e.is_free);
    if (!paid) throw new Error('no paid edition');

    const full = await subscriber.getEdition(paid.slug);
    expect(full.requires_subscription).toBe(false);
    expect(full.pages.length).toBeGreaterThan(0);

    const locked = await anon.getEdition(paid.slug);
    expect(locked.requires_subscription).toBe(true);
    expect(locked.pages).toEqual([]);

    const { token: readerToken } = await anon.login('reader@masthead.test', PASSWORD);
    const reader = await client(up, 'daily-planet', readerToken).getEdition(paid.slug);
    expect(reader.pages).toEqual([]);
    // And the subscriber still gets the cached full edition.
    expect((await subscriber.getEdition(paid.slug)).pages.length).toBe(full.pages.length);
  });

  it("a tenant's service token spends its own budget on public reads but never unlocks paid pages", async () => {
    const { up } = freshUpstream();
    const { token: serviceToken } = await client(up).login('subscriber@masthead.test', PASSWORD);
    const site = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: mock.publishingUrl,
      upstream: up,
      serviceToken,
    });
    const paid = (await client(up).listEditions({ perPage: 50 })).items.find((e) => !e.is_free);
    if (!paid) throw new Error('no paid edition');
    expect((await site.getEdition(paid.slug)).pages).toEqual([]);

    await ctl.limits(mock, { publicPerMinute: 1 });
    const before = (await ctl.stats(mock)).publishing.routes['GET /posts'] ?? 0;
    // Three public reads pass although the anonymous per-IP limit is 1: they count on the token.
    for (const page of [1, 2, 3])
      expect((await site.listPosts({ page })).items.length).toBeGreaterThan(0);
    expect((await ctl.stats(mock)).publishing.routes['GET /posts']).toBe(before + 3);
    await ctl.limits(mock, { publicPerMinute: 60 });
  });
  it("a tenant's service token the API revoked: public reads go on anonymously, no page fails", async () => {
    const { up } = freshUpstream();
    const { token } = await client(up).login('subscriber@masthead.test', PASSWORD);
    const site = publishingClient({
      tenantId: 'daily-planet',
      baseUrl: mock.publishingUrl,
      upstream: up,
      serviceToken: token,
    });
    expect((await site.listPosts({ page: 1 })).items.length).toBeGreaterThan(0);
    await client(up, 'daily-planet', token).logout(); // the API no longer knows the token

    expect((await site.listPosts({ page: 2 })).items.length).toBeGreaterThan(0);
    // The refused token is not sent again on every read: the next one is a single call.
    const before = (await ctl.stats(mock)).publishing.routes['GET /posts'] ?? 0;
    expect((await site.listPosts({ page: 3 })).items.length).toBeGreaterThan(0);
    expect((await ctl.stats(mock)).publishing.routes['GET /posts']).toBe(before + 1);
  });
});

describe('budget against the mock', () => {
  it('with publicPerMinute 10, a burst of 50 distinct reads causes zero upstream 429s', async () => {
    await ctl.limits(mock, { publicPerMinute: 10 });
    const { up } = freshUpstream({ limits: { publishingPublicPerMinute: 10 } });
    const pub = client(up);
    const slugs = (await pub.listPosts({ perPage: 50 })).items.map((p) => p.slug);
    expect(slugs.length).toBe(50);

    const results = await Promise.allSettled(slugs.map((slug) => pub.getPost(slug)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const failed = results.filter((r) => r.status === 'rejected');
    // 9 spendable (90% of 10), 1 kept for sign-ins and comments, 1 went on the list.
    expect(ok).toBe(7);
    expect(
      failed.every(
        (r) =>
          r.reason instanceof RateLimitedError && r.reason.local && r.reason.retryAfterSeconds > 0,
      ),
    ).toBe(true);

    const totals = up.metrics.getStatus().totals;
    expect(totals.rateLimited429).toBe(0);
    expect(totals.budgetRejected).toBe(43);
    const stats = await ctl.stats(mock);
    expect(stats.publishing.total).toBe(8);
    expect(stats.publishing.total).toBeLessThanOrEqual(10);
  });

  it('serves stale instead of failing when the budget is empty', async () => {
    await ctl.limits(mock, { publicPerMinute: 10 });
    let clock = Date.now();
    const { up } = freshUpstream({ limits: { publishingPublicPerMinute: 10 }, now: () => clock });
    const pub = client(up);
    const tags = await pub.listTags();
    // Spend the rest of the budget on distinct reads.
    await Promise.allSettled(Array.from({ length: 20 }, (_, i) => pub.getPost(`p-${i}`)));
    clock += 2 * 60 * 60 * 1000; // tags now past stale, inside errorGrace
    expect(await pub.listTags()).toEqual(tags);
    expect(up.metrics.getStatus().totals.rateLimited429).toBe(0);
  });

  it('corrects itself when the upstream reports less remaining than we think', async () => {
    await ctl.limits(mock, { publicPerMinute: 20 });
    // Another client on the same IP spends 15 of the 20.
    for (let i = 0; i < 15; i += 1) {
      await fetch(`${mock.publishingUrl}/plans`, { headers: { 'X-Tenant': 'alpine-post' } });
    }
    // No write reserve: the pages may spend all that the headers leave.
    const { up } = freshUpstream({ limits: { publishingPublicPerMinute: 20 }, writeReserve: 0 });
    const pub = client(up);
    const outcomes: string[] = [];
    for (const category of ['news', 'sport', 'business', 'culture', 'opinion', 'travel']) {
      outcomes.push(
        await pub.listPosts({ category }).then(
          () => 'ok',
          (e: unknown) => (e instanceof RateLimitedError && e.local ? 'local' : 'upstream'),
        ),
      );
    }
    // We believed 18 were ours; the first answer said 4 remain (keep a reserve of 2), and so on.
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'local', 'local', 'local']);
    expect(up.metrics.getStatus().totals.rateLimited429).toBe(0);
  });
});
