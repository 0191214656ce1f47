import { afterAll, beforeAll, expect, it } from 'vitest';
import { coldPages, measureColdPages, type ColdResult } from './cold-pages.ts';
import { startDocumentedMock, type Mock } from './stack.ts';

// Every cold page type in as few upstream round trips as its data allows (issue 23): what needs
// only the address starts at once. Counted from the upstream's request log, not from a clock.
let mock: Mock;
let results: ColdResult[];

beforeAll(async () => {
  mock = await startDocumentedMock();
  await fetch(`${mock.controlUrl}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service: 'publishing', latencyMs: 100 }),
  });
  results = await measureColdPages(mock, await coldPages(mock));
  console.table(results);
}, 120_000);

afterAll(async () => {
  await mock.close();
});

const expected: Record<string, number> = {
  home: 1,
  // Post, its comments and (a tenant no list has shown yet) the front page's pool together; the
  // related posts come from the pool, so no related list after the post.
  post: 1,
  category: 1,
  tag: 1,
  'e-paper list': 1,
  'e-paper edition': 1,
  paywall: 1,
  plans: 1,
  streams: 1,
  search: 1,
};

it.each(Object.entries(expected))(
  'a cold %s page waits for %i upstream round trip(s)',
  (type, trips) => {
    const result = results.find((item) => item.type === type);
    expect(result?.status).toBe(200);
    expect(result?.roundTrips).toBe(trips);
  },
);

// With styles and scripts as files, the policy needs no list of hashes (it was 1.9 KB of 2.3 KB).
// A post's page also names, in `Surrogate-Key`, the related posts it shows and its tags, so a CDN
// purging one of them drops it (src/lib/delivery/cache-tags.ts): a few hundred bytes more.
const headerLimit = (type: string) => (type === 'post' ? 1200 : 800);
it.each(Object.keys(expected))('a %s page answers with headers within its limit', (type) => {
  const result = results.find((item) => item.type === type);
  expect(result?.headerBytes).toBeLessThanOrEqual(headerLimit(type));
});
