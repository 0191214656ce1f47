import { describe, expect, it, vi } from 'vitest';
import { cacheHeaders, postPageTags, tagOf } from '../../../src/lib/delivery/cache-tags.ts';
import { createRouteCache } from '../../../src/lib/delivery/route-cache.ts';
import {
  changedTags,
  dataTarget,
  type Invalidation,
} from '../../../src/lib/freshness/invalidation.ts';
import { cacheKey, createReadCache } from '../../../src/lib/upstream/cache.ts';
import { NotFoundError, RateLimitedError } from '../../../src/lib/upstream/errors.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';

const T = 'daily-planet';
const older = { slug: 'older-story', tags: [{ slug: 'port' }] };
/** What the change watcher sends for a post published in `city` with the tag `port`. */
const published: Invalidation = {
  tenant: T,
  slugs: ['new-story'],
  categories: ['city'],
  topics: ['port'],
  at: 0,
};

describe('cache tags (one module for pages and invalidation)', () => {
  it.each([
    ['home, feeds, sitemaps', [tagOf.lists(T)], true],
    ['its category', [tagOf.category(T, 'city')], true],
    ['its tag', [tagOf.tag(T, 'port')], true],
    ['another category', [tagOf.category(T, 'sport')], false],
    ['an older post with the same tag', postPageTags(T, older, [{ slug: 'other' }]), false],
    ['a post showing it as related', postPageTags(T, older, [{ slug: 'new-story' }]), true],
  ])('a new post drops %s: %s', (_, pageTags, dropped) => {
    const drops = new Set(changedTags(published));
    expect(pageTags.some((tag) => drops.has(tag))).toBe(dropped);
  });

  it('a changed post drops itself and the lists, a comment only its own page', () => {
    const changed = changedTags({ tenant: T, slugs: ['older-story'], topics: ['port'] });
    expect(changed).toEqual(expect.arrayContaining([tagOf.lists(T), `${T}:post:older-story`]));
    expect(
      postPageTags(T, older, []).every((tag) => changed.includes(tag) || tag.includes('tagged')),
    ).toBe(true);
    expect(changedTags({ tenant: T, comments: ['older-story'] })).toEqual([
      `${T}:post:older-story`,
    ]);
  });

  it('a purge of a tag also drops the pages of the posts carrying it', () => {
    const purge = new Set(changedTags({ tenant: T, topics: ['port'], postsTagged: ['port'] }));
    expect(postPageTags(T, older, []).some((tag) => purge.has(tag))).toBe(true);
    expect(changedTags({ tenant: T, everything: true })).toEqual([T]);
  });
  it('a post whose slug is not Latin-1 or has a space gets header-safe tags that its change drops', () => {
    const slugs = ['東京-marathon', 'o brien, returns'];
    for (const slug of slugs) {
      const tags = postPageTags(T, { slug, tags: [{ slug: 'ελλάδα' }] }, []);
      // A page's tags travel as headers; one outside Latin-1 made the post page fail.
      const headers = cacheHeaders({ tags }, new Request('http://localhost/'));
      expect(headers.get('Surrogate-Key')?.split(' ')).toHaveLength(tags.length);
      expect(headers.get('Cache-Tag')?.split(', ')).toHaveLength(tags.length);
      const drops = new Set(changedTags({ tenant: T, slugs: [slug], postsTagged: ['ελλάδα'] }));
      expect(tags.every((tag) => drops.has(tag))).toBe(true);
    }
  });
});

describe('the route cache after a publish', () => {
  const logger = { info() {}, warn() {}, error() {} };
  function setup() {
    const cache = createRouteCache();
    let status = 200;
    let renders = 0;
    const get = async (path: string, tags: string[]) => {
      const request = new Request(`http://${T}.localhost${path}`);
      const response = await cache.onRequest({ request, url: new URL(request.url), logger }, () => {
        renders += 1;
        return Promise.resolve(
          new Response(status === 200 ? `${path} render ${renders}` : 'Busy', {
            status,
            headers:
              status === 200
                ? { 'CDN-Cache-Control': 'max-age=300', 'Cache-Tag': tags.join(', ') }
                : { 'Cache-Control': 'no-store' },
          }),
        );
      });
      return {
        state: response.headers.get('X-Astro-Cache'),
        status: response.status,
        body: await response.text(),
      };
    };
    return { cache, get, answer: (code: number) => (status = code) };
  }
  const pages: [string, string[]][] = [
    ['/', [tagOf.lists(T)]],
    ['/categories/city', [tagOf.category(T, 'city')]],
    ['/categories/sport', [tagOf.category(T, 'sport')]],
    ['/posts/older-story', postPageTags(T, older, [{ slug: 'other' }])],
  ];

  it('renders the lists that show the new post again and keeps the older post’s page', async () => {
    const { cache, get } = setup();
    for (const [path, tags] of pages) await get(path, tags);
    await cache.invalidate({ tags: changedTags(published) });
    const states = Object.fromEntries(
      await Promise.all(
        pages.map(async ([path, tags]): Promise<[string, string | null]> => [
          path,
          (await get(path, tags)).state,
        ]),
      ),
    );
    expect(states).toEqual({
      '/': 'MISS',
      '/categories/city': 'MISS',
      '/categories/sport': 'HIT',
      '/posts/older-story': 'HIT',
    });
  });

  it('serves the invalidated copy, marked stale, when the new render fails', async () => {
    const { cache, get, answer } = setup();
    const first = await get('/', [tagOf.lists(T)]);
    await cache.invalidate({ tags: changedTags(published) });
    answer(503);
    const busy = await get('/', [tagOf.lists(T)]);
    expect(busy).toEqual({ state: 'STALE', status: 200, body: first.body });
    // A page nobody had rendered has no copy: the 503 goes through.
    expect((await get('/categories/sport', [])).status).toBe(503);
  });
});

describe('a takedown', () => {
  it('never brings the old page back once it answered 404', async () => {
    const cache = createRouteCache();
    let status = 200;
    const logger = { info() {}, warn() {}, error() {} };
    const get = async () => {
      const request = new Request(`http://${T}.localhost/posts/older-story`);
      const response = await cache.onRequest({ request, url: new URL(request.url), logger }, () =>
        Promise.resolve(
          new Response(status === 200 ? 'Wrong name printed' : 'Gone', {
            status,
            headers:
              status === 200
                ? { 'CDN-Cache-Control': 'max-age=300', 'Cache-Tag': `${T}:post:older-story` }
                : {},
          }),
        ),
      );
      return response.status;
    };
    expect(await get()).toBe(200);
    await cache.invalidate({ tags: changedTags({ tenant: T, slugs: ['older-story'] }) });
    status = 404;
    expect(await get()).toBe(404);
    status = 503;
    expect(await get()).toBe(503);
  });

  it('drops a stale copy once its refresh answered 404, keeps it while the refresh fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = createRouteCache();
    let status = 200;
    let refreshes = 0;
    const logger = { info() {}, warn() {}, error() {} };
    const get = async () => {
      const request = new Request(`http://${T}.localhost/posts/older-story`);
      const response = await cache.onRequest({ request, url: new URL(request.url), logger }, () => {
        refreshes += 1;
        return Promise.resolve(
          new Response(status === 200 ? 'Wrong name printed' : 'Gone', {
            status,
            headers:
              status === 200
                ? { 'CDN-Cache-Control': 'max-age=60, stale-while-revalidate=3600' }
                : { 'Cache-Control': 'no-store' },
          }),
        );
      });
      return { state: response.headers.get('X-Astro-Cache'), status: response.status };
    };
    /** The next request once the background refresh it starts has answered. */
    const refreshed = async () => {
      const before = refreshes;
      const answer = await get();
      await vi.waitFor(() => expect(refreshes).toBe(before + 1));
      // Its answer read and kept (or not) in the background: promise callbacks only.
      await new Promise((resolve) => setImmediate(resolve));
      return answer;
    };
    try {
      expect(await get()).toEqual({ state: 'MISS', status: 200 });
      vi.advanceTimersByTime(61_000);
      status = 503;
      expect(await refreshed()).toEqual({ state: 'STALE', status: 200 });
      // The API failing is no news: the copy stays for the next reader.
      expect(await refreshed()).toEqual({ state: 'STALE', status: 200 });
      status = 404;
      expect(await refreshed()).toEqual({ state: 'STALE', status: 200 });
      // The refresh learnt the story was taken down: the next reader gets the 404.
      expect(await get()).toEqual({ state: null, status: 404 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the data cache after a publish', () => {
  const policy = { fresh: 60, stale: 600, errorGrace: 3600 };
  const ctx = { service: 'publishing' as const, tenant: T };
  const key = (operation: string, params: Record<string, unknown>) =>
    cacheKey({
      service: 'publishing',
      tenant: T,
      api: 'https://api.example.com/api/v1',
      operation,
      params,
    });
  const value = (text: string) => () => Promise.resolve(text);
  function setup() {
    let clock = 1_000_000;
    const cache = createReadCache({
      metrics: createMetrics({ log: () => undefined }),
      now: () => clock,
      log: () => undefined,
    });
    return { cache, tick: () => (clock += 1), at: () => clock };
  }

  it('loads the lists and the new post again, not an older post', async () => {
    const { cache, tick, at } = setup();
    const gone = () =>
      Promise.reject(new NotFoundError('no', { service: 'publishing', operation: 'posts.get' }));
    await cache.read(key('posts.list', { page: 1 }), policy, value('old list'), ctx);
    await cache.read(key('posts.get', { slug: 'older-story' }), policy, value('older'), ctx);
    await cache.read(
      key('comments.list', { postSlug: 'older-story', page: 2 }),
      policy,
      value('c'),
      ctx,
    );
    await expect(
      cache.read(key('posts.get', { slug: 'new-story' }), policy, gone, ctx),
    ).rejects.toThrow();
    tick();
    cache.invalidate(dataTarget({ ...published, at: at() }));
    tick();
    const read = (operation: string, params: Record<string, unknown>, text: string) =>
      cache.read(key(operation, params), policy, value(text), ctx);
    expect(await read('posts.list', { page: 1 }, 'new list')).toBe('new list');
    expect(await read('posts.get', { slug: 'new-story' }, 'new')).toBe('new');
    expect(await read('posts.get', { slug: 'older-story' }, 'x')).toBe('older');
    expect(await read('comments.list', { postSlug: 'older-story', page: 2 }, 'x')).toBe('c');

    // A comment on the older post: its thread (every page) only.
    cache.invalidate(dataTarget({ tenant: T, comments: ['older-story'], at: at() }));
    tick();
    expect(await read('comments.list', { postSlug: 'older-story', page: 2 }, 'c2')).toBe('c2');
    expect(await read('posts.get', { slug: 'older-story' }, 'x')).toBe('older');
    expect(await read('posts.list', { page: 1 }, 'x')).toBe('new list');
  });

  it('serves an invalidated value, counted, when the budget is spent', async () => {
    const { tick, at } = setup();
    const metrics = createMetrics({ log: () => undefined });
    const counted = createReadCache({ metrics, now: () => at(), log: () => undefined });
    await counted.read(key('posts.list', { page: 1 }), policy, value('old list'), ctx);
    tick();
    counted.invalidate(dataTarget({ ...published, at: at() }));
    tick();
    const spent = () =>
      Promise.reject(
        new RateLimitedError(
          'local rate budget spent',
          {
            service: 'publishing',
            operation: 'posts.list',
          },
          30,
          true,
        ),
      );
    expect(await counted.read(key('posts.list', { page: 1 }), policy, spent, ctx)).toBe('old list');
    expect(metrics.getStatus().totals.staleBeyondWindow).toBe(1);
  });
});
