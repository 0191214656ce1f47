/**
 * Distinct-query flood bench: the route cache as configured (src/lib/delivery/route-cache.ts) and
 * Astro's memoryCache it replaces, each fed 20,000 URLs with parameters no page reads plus 20,000
 * new `/search?q=` values (1.5 KB each), in process; the heap grown after a forced GC.
 * Target: the configured cache grows < 20 MB (its bound: 2,000 pages, 64 MB), whatever the flood.
 *
 *   node bench/query-flood.ts
 */
import astroMemoryCache from 'astro/cache/memory';
import { floodGrowthMb } from '../tests/fixtures/query-flood.ts';
import routeCache from '../src/lib/delivery/route-cache.ts';

export interface QueryFloodResult {
  requests: number;
  routeCacheGrownMb: number;
  astroMemoryCacheGrownMb: number;
  ok: boolean;
}

export async function run(): Promise<QueryFloodResult> {
  const requests = 20_000;
  const options = { max: 2000, maxBytes: 64 * 1024 * 1024 };
  const routeCacheGrownMb = await floodGrowthMb(routeCache(options), requests, 1500);
  const astroMemoryCacheGrownMb = await floodGrowthMb(astroMemoryCache(options), requests, 1500);
  return {
    requests: requests * 2,
    routeCacheGrownMb: Math.round(routeCacheGrownMb * 10) / 10,
    astroMemoryCacheGrownMb: Math.round(astroMemoryCacheGrownMb * 10) / 10,
    ok: routeCacheGrownMb < 20,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table([await run()]);
}
