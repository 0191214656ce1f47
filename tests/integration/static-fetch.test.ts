import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { createDiskCache } from '../../src/lib/static/disk-cache.ts';
import { fetchSnapshot, StaticBuildError, type FetchOptions } from '../../src/lib/static/fetch.ts';
import { createPacingBudget } from '../../src/lib/static/pacer.ts';
import { TenantSchema, type Tenant } from '../../src/lib/tenants/schema.ts';
import { createMetrics } from '../../src/lib/upstream/metrics.ts';
import { createUpstream } from '../../src/lib/upstream/runtime.ts';
import { ctl, freshUpstream, PASSWORD, startTestMock, type Mock } from './harness.ts';
import { publishingTestClient } from './operations.ts';

let mock: Mock;
let tenant: Tenant;

beforeAll(async () => {
  mock = await startTestMock({ publicPerMinute: 0, tokenPerMinute: 0 });
  tenant = TenantSchema.parse({
    id: 'harbour-times',
    name: 'Harbour Times',
    hosts: ['harbour-times.localhost'],
    locale: 'en-GB',
    timeZone: 'Europe/London',
    theme: { colors: { primary: '#0f6e6e', accent: '#e08a1e' } },
    publishing: { baseUrl: mock.publishingUrl },
  });
});
afterAll(() => mock.close());
beforeEach(async () => {
  await ctl.reset(mock);
  await ctl.limits(mock, { publicPerMinute: 0, tokenPerMinute: 0 });
});

/** One build's fetch: a fresh process's worth of budget and client cache, the same disk cache. */
function fetchWith(
  dir: string,
  freshMs = 60_000,
  onPartial?: FetchOptions['onPartial'],
  site: Tenant = tenant,
) {
  const upstream = {
    ...createUpstream({
      metrics: createMetrics({ log: () => undefined }),
      http: { maxRetries: 0 },
    }),
    // The mock's limits are off here (no headers to follow): a limit that never makes it wait.
    budget: createPacingBudget({ limits: { publishingPublicPerMinute: 100_000 } }),
  };
  return fetchSnapshot({
    tenant: site,
    cache: createDiskCache(dir),
    freshMs,
    upstream,
    ...(onPartial && { onPartial }),
  });
}

const calls = async () => (await ctl.stats(mock)).publishing;

describe('fetching a static copy', () => {
  it('reads every list 50 at a time and each post once, then nothing within the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-fetch-'));
    const { snapshot, progress } = await fetchWith(dir);
    const first = await calls();
    expect(first.total).toBe(progress.made);
    expect(first.routes['GET /posts/{slug}']).toBe(snapshot.posts.length);
    expect(first.routes['GET /posts/{slug}/comments']).toBe(snapshot.posts.length);
    // Subscriber-only editions keep no pages; free ones have theirs.
    expect(snapshot.editions.filter((e) => e.requires_subscription && e.pages.length > 0)).toEqual(
      [],
    );
    expect(snapshot.editions.some((e) => e.pages.length > 0)).toBe(true);

    const again = await fetchWith(dir);
    expect((await calls()).total).toBe(first.total);
    expect(again.progress.made).toBe(0);
    expect(again.snapshot.posts).toEqual(snapshot.posts);
  });

  it('copies every post of an API that does not count its pages (simplePaginate)', async () => {
    const counted = await fetchWith(mkdtempSync(join(tmpdir(), 'masthead-fetch-')));
    await ctl.faults(mock, { service: 'publishing', simplePaginate: true });
    const { snapshot } = await fetchWith(mkdtempSync(join(tmpdir(), 'masthead-fetch-')));
    expect(counted.snapshot.posts.length).toBeGreaterThan(50);
    expect(snapshot.posts.map((post) => post.slug)).toEqual(
      counted.snapshot.posts.map((post) => post.slug),
    );
  });

  it('tells the build of each post and edition page as soon as the snapshot so far holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-fetch-'));
    const told: string[] = [];
    const { snapshot } = await fetchWith(dir, 60_000, (partial, newPaths) => {
      for (const path of newPaths) {
        const [, kind, slug] = path.split('/');
        const list = kind === 'posts' ? partial.posts : partial.editions;
        expect(list.some((item) => item.slug === slug)).toBe(true);
        told.push(path);
      }
    });
    expect(told.sort()).toEqual(
      [
        ...snapshot.posts.map((post) => `/posts/${post.slug}`),
        ...snapshot.editions.map((edition) => `/epaper/${edition.slug}`),
      ].sort(),
    );
  });

  it('copies a tenant moved to another API since the last build from that API alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-fetch-'));
    const old = await fetchWith(dir);
    // Another API with other stories (another seed), the tenant pointed at it within the window.
    const free = { publishingPort: 0, lodgingPort: 0, controlPort: 0 };
    const limits = { publicPerMinute: 0, tokenPerMinute: 0 };
    const other = await startMock({ ...free, seed: 7, postsPerTenant: 20, limits });
    try {
      const moved = {
        ...tenant,
        publishing: { ...tenant.publishing, baseUrl: other.publishingUrl },
      };
      const { snapshot } = await fetchWith(dir, 60_000, undefined, moved);
      const theirs = new Set(
        other.state.publishing.sites.get(tenant.id)!.posts.map((post) => post.title),
      );
      expect(snapshot.posts.length).toBeGreaterThan(0);
      expect(snapshot.posts.filter((post) => !theirs.has(post.title))).toEqual([]);
      expect(snapshot.posts).not.toEqual(old.snapshot.posts);
    } finally {
      await other.close();
    }
  });

  it('after the window, asks the lists again and only the posts that changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-fetch-'));
    const { snapshot } = await fetchWith(dir);
    const options = {
      tenantId: tenant.id,
      baseUrl: mock.publishingUrl,
      upstream: freshUpstream().up,
    };
    const { token } = await publishingTestClient(options).login('editor@masthead.test', PASSWORD);
    const editor = publishingTestClient({ ...options, token });
    const changed = snapshot.posts[3]!;
    await editor.updatePost(changed.id, { title: 'A corrected headline' });
    await fetch(`${mock.controlUrl}/stats`, { method: 'DELETE' });

    const rebuilt = await fetchWith(dir, 0);
    const routes = (await calls()).routes;
    expect(routes['GET /posts/{slug}']).toBe(1);
    expect(routes['GET /posts/{slug}/comments']).toBe(1);
    expect(routes['GET /posts']).toBe(Math.ceil(snapshot.posts.length / 50));
    expect(rebuilt.snapshot.posts.find((p) => p.id === changed.id)?.title).toBe(
      'A corrected headline',
    );
  });

  it('stores what it got when the upstream goes away midway, names the rest, and resumes from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-fetch-'));
    const interrupted = fetchWith(dir).catch((error: unknown) => error);
    // Lists come first; once details are under way, the upstream disappears.
    while ((await calls()).total < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    await ctl.faults(mock, { service: 'publishing', down: true });
    const failed = await interrupted;
    expect(failed).toBeInstanceOf(StaticBuildError);
    expect((failed as Error).message).toMatch(/could not be fetched[\s\S]*- \/posts\/[a-z0-9-]+: /);

    await ctl.clearFaults(mock);
    await fetch(`${mock.controlUrl}/stats`, { method: 'DELETE' });
    const { snapshot, progress } = await fetchWith(dir);
    const routes = (await calls()).routes;
    // The lists and the details stored before the interruption are not asked again.
    expect(routes['GET /posts']).toBeUndefined();
    expect(routes['GET /posts/{slug}']).toBeGreaterThan(0);
    expect(routes['GET /posts/{slug}']).toBeLessThan(snapshot.posts.length);
    expect(progress.reused).toBeGreaterThan(0);
  });
});
