import type { CacheProvider, CacheProviderConfig } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import { ask, floodGrowthMb } from '../../fixtures/query-flood.ts';

// The route cache as astro.config.mjs configures it, fed the flood a stranger can send: one page
// variant per made-up query string. The heap after a forced GC must stay within the cache's bounds.

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

describe('route cache under a distinct-query flood', () => {
  let provider: CacheProvider;
  beforeAll(async () => {
    provider = await configuredProvider();
  });

  it('holds no more memory after 40,000 distinct URLs than its bounds allow', async () => {
    const grownMb = await floodGrowthMb(provider, 20_000, 1500);
    // Astro's memoryCache grew by ~100 MB here (its Vary map keeps every URL); the bound is 2,000
    // pages of ~1.5 KB keys, and nothing else may grow with the number of URLs seen.
    // (The figure for both is in `npm run bench`: bench/query-flood.ts.)
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
