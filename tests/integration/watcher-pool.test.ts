/**
 * The change watcher's look is the front page's read of its pool (issue 35), through the site's own
 * wiring (src/lib/services/clients.ts) against the contract mock: after a tenant's first look the
 * front page reads no list of the newest posts of its own and every post of it is known to the
 * stand-ins (src/lib/publishing/known-posts.ts); after a publish, the look that sees it leaves the
 * pool it read current (the front page shows the new post without reading it again), while the
 * other lists are read again.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { editorOf } from '../deploy/editor.ts';
import { startTestMock, type Mock } from './harness.ts';

type Clients = typeof import('../../src/lib/services/clients.ts');
type Registry = typeof import('../../src/lib/tenants/registry.ts');
type Watcher = typeof import('../../src/lib/freshness/watcher.ts');
type FrontPage = typeof import('../../src/lib/reading/front-page-load.ts');
type Log = typeof import('../../src/lib/log/log.ts');

const TENANT = 'daily-planet';
// Taken before the test fakes the timers.
const realTimeout = globalThis.setTimeout;
let mock: Mock;
let clients: Clients;
let registry: Registry;
let watcher: Watcher;
let front: FrontPage;
let log: Log;

beforeAll(async () => {
  mock = await startTestMock();
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('UPSTREAM_CACHE_DIR', '');
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../src/lib/tenants/registry.ts');
  clients = await import('../../src/lib/services/clients.ts');
  watcher = await import('../../src/lib/freshness/watcher.ts');
  front = await import('../../src/lib/reading/front-page-load.ts');
  log = await import('../../src/lib/log/log.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

/** The mock's count of `route` for the tenant (`GET /posts?per_page=50`). */
const calls = (route: string) => mock.state.tenantStats[TENANT]?.[route] ?? 0;
const POOL = 'GET /posts?per_page=50';
const FEATURED = 'GET /posts?per_page=3';

it('shares the front page’s pool: one read for both, every post known from the first look', async () => {
  const tenant = registry.getTenants().find((one) => one.id === TENANT)!;
  const client = clients.publishingFor(tenant);
  const lines: string[] = [];
  const restore = log.redirectLogLines((line) => lines.push(line));
  const level = log.logger.level;
  log.logger.level = 'info';
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const watching = watcher.watchTenant({
    tenant,
    tenantsSharing: () => 3,
  });
  /**
   * Moves the watcher's clock on until `done()` (at most two minutes of its time), letting real
   * time pass between steps: its calls to the in-process mock are real I/O, slow on a busy machine.
   */
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 120 && !done(); i++) {
      await vi.advanceTimersByTimeAsync(1000);
      if (!done()) await new Promise((resolve) => realTimeout(resolve, 100));
    }
    expect(done()).toBe(true);
  };
  try {
    // The first look: the newest 50, every one of them known at once.
    await until(() => calls(POOL) === 1);
    await until(() => client.listedPosts(Infinity).length === 50);

    const first = await front.loadFrontPage(tenant);
    expect(calls(POOL)).toBe(1);
    const shown = [...first.latest.items, ...first.sections.flatMap((block) => block.posts)];
    for (const post of shown) expect(client.knownPost(post.slug)?.title).toBe(post.title);

    // A publish: the next look sees it and drops the lists, but not the pool it has just read.
    const title = `Ferry timetable changes ${Date.now()}`;
    await (await editorOf(mock, TENANT)).publish(title);
    const featuredBefore = calls(FEATURED);
    await until(() => lines.some((line) => line.includes('"freshness.changes"')));
    expect(calls(POOL)).toBe(2);

    const after = await front.loadFrontPage(tenant);
    expect(after.latest.items.map((post) => post.title)).toContain(title);
    expect(calls(POOL)).toBe(2);
    // The other lists were dropped: the featured list is read again.
    expect(calls(FEATURED)).toBe(featuredBefore + 1);
  } finally {
    watching.stop();
    vi.useRealTimers();
    log.logger.level = level;
    restore();
  }
}, 60_000);
