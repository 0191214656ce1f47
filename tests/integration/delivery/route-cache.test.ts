import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CacheProvider, CacheProviderConfig } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';

// The route cache as astro.config.mjs configures it, fed the flood a stranger can send: one page
// variant per made-up query string. The heap after a forced GC must stay within the cache's bounds.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAD = 'x'.repeat(1500);
const FLOOD = 20_000;

async function configuredProvider(): Promise<CacheProvider> {
  const { default: config } = (await import('../../../astro.config.mjs')) as {
    default: { cache: { provider: CacheProviderConfig } };
  };
  const { entrypoint, config: options } = config.cache.provider;
  const module = (await import(String(entrypoint))) as {
    default: (options: unknown) => CacheProvider;
  };
  return module.default(options);
}

function page(): Response {
  return new Response('<!doctype html><title>Front page</title><p>Hello</p>', {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'CDN-Cache-Control': 'max-age=300, stale-while-revalidate=3600',
      Vary: 'Accept-Encoding',
    },
  });
}

async function ask(provider: CacheProvider, path: string): Promise<Response> {
  const request = new Request(`http://daily-planet.localhost:4321${path}`, {
    headers: { 'Accept-Encoding': 'gzip' },
  });
  const logger = { info() {}, warn() {}, error() {} };
  return provider.onRequest!({ request, url: new URL(request.url), logger }, () =>
    Promise.resolve(page()),
  );
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('route cache under a distinct-query flood', () => {
  let provider: CacheProvider;
  beforeAll(async () => {
    provider = await configuredProvider();
  });

  it('holds no more memory after 40,000 distinct URLs than its bounds allow', async () => {
    // Warm up: the provider's own code and first entries are not growth.
    for (let n = 0; n < 2000; n += 1) await ask(provider, `/search?q=warm-${n}`);
    const before = heapAfterGc();
    for (let n = 0; n < FLOOD; n += 1) {
      await ask(provider, `/?v=${n}&pad=${PAD}`); // parameters the page does not read
      await ask(provider, `/search?q=${n}-${PAD}`); // a parameter it reads, a new value each time
    }
    const grownMb = (heapAfterGc() - before) / 1024 / 1024;
    // Astro's memoryCache grew by ~70 MB here (its Vary map keeps every URL); the bound is 2,000
    // pages of ~3 KB keys, and nothing else may grow with the number of URLs seen.
    expect(grownMb).toBeLessThan(20);
  }, 120_000);

  it('keys a page by the query parameters it reads, in any order', async () => {
    await ask(provider, '/search?q=ferry&tenant=daily-planet');
    const again = await ask(provider, '/search?tenant=daily-planet&q=ferry');
    expect(again.headers.get('X-Astro-Cache')).toBe('HIT');
    const other = await ask(provider, '/search?q=harbour&tenant=daily-planet');
    expect(other.headers.get('X-Astro-Cache')).toBe('MISS');
  });

  it('leaves an address with parameters the page does not read to the site, stores nothing', async () => {
    await ask(provider, '/posts/ferry-news?reply=4');
    for (const path of ['/posts/ferry-news?reply=4&utm_source=mail', '/posts/ferry-news?v=9']) {
      await ask(provider, path);
      expect((await ask(provider, path)).headers.get('X-Astro-Cache')).toBeNull();
    }
  });

  it('never stores a route that is not a shareable page', async () => {
    await ask(provider, '/stay/manage/abc.def');
    const again = await ask(provider, '/stay/manage/abc.def');
    expect(again.headers.get('X-Astro-Cache')).toBeNull();
  });
});
