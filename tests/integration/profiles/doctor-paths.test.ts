import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import type { OperationReport } from '../../../src/lib/profiles/doctor/report.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// An API that keeps its resources where no default path looks: an index at its base address names
// some, a post's own link names the post's address, and the e-paper is at one of the contract's
// spellings. The doctor finds each and lists every path it tried.
const BASE = 'https://paths.example.com/api/v1';
const post = {
  id: 1,
  title: 'Harbour reopens',
  slug: 'harbour-reopens',
  published_at: '2026-11-01T09:00:00Z',
  author: { name: 'Ann' },
  links: { self: `${BASE}/read/harbour-reopens` },
};
const plan = { name: 'Gold', slug: 'gold', price: '9.90', currency: 'EUR', interval: 'month' };
const stream = { title: 'Council', slug: 'council', status: 'live' };
const edition = {
  title: 'Morning',
  slug: 'morning',
  published_at: '2026-11-01',
  cover_image_url: 'https://paths.example.com/c.jpg',
  page_count: 2,
};

const ROUTES: Record<string, unknown> = {
  '/api/v1': {
    links: { posts: '/api/v1/posts', shop: `${BASE}/shop/subscription_plans` },
    _links: { video: { href: '/api/v1/live/streams' } },
  },
  '/api/v1/posts': { data: [post], meta: { total: 1 } },
  '/api/v1/read/harbour-reopens': { data: { ...post, content: '<p>Open.</p>' } },
  '/api/v1/shop/subscription_plans': { data: [plan] },
  '/api/v1/shop/subscription_plans/gold': { data: plan },
  '/api/v1/live/streams': { data: [stream] },
  '/api/v1/live/streams/council': { data: stream },
  '/api/v1/e-paper/editions': { data: [edition] },
  '/api/v1/e-paper/editions/morning': { data: edition },
};

const fakeFetch = ((input: URL | string) => {
  const url = new URL(String(input));
  const body = ROUTES[url.pathname.replace(/\/$/, '')];
  return Promise.resolve(
    body === undefined
      ? new Response('{"message":"Not found."}', { status: 404 })
      : Response.json(body),
  );
}) as typeof fetch;

const path = (ops: OperationReport[], name: string) => ops.find((o) => o.operation === name);

describe('where the doctor looks for a path that is not where the profile says', () => {
  it('follows the index, the records’ links and the contract’s spellings, and lists what it tried', async () => {
    const report = await runDoctor({
      tenant: buildTenant({ id: 'paths', publishing: { baseUrl: BASE } }),
      profiles: new Map(),
      secrets: {},
      fetch: fakeFetch,
    });
    const ops = report.operations;
    expect(path(ops, 'posts.get')?.path).toBe('/read/{slug}');
    expect(path(ops, 'plans.list')?.path).toBe('/shop/subscription_plans');
    expect(path(ops, 'plans.get')?.path).toBe('/shop/subscription_plans/{slug}');
    expect(path(ops, 'streams.list')?.path).toBe('/live/streams');
    expect(path(ops, 'epaper.list')?.path).toBe('/e-paper/editions');
    expect(path(ops, 'epaper.get')?.path).toBe('/e-paper/editions/{slug}');
    // Index links come before the spellings: the plans took two calls.
    expect(path(ops, 'plans.list')?.tried).toEqual([
      { path: '/plans', status: 404 },
      { path: '/shop/subscription_plans', status: 200 },
    ]);
    const epaper = path(ops, 'epaper.list')?.tried?.map((t) => t.path) ?? [];
    expect(epaper.slice(0, 3)).toEqual(['/epaper', '/e-paper-editions', '/e_paper_editions']);
    expect(report.proposals.publishing?.['epaper.list']?.path).toBe('/e-paper/editions');
    const lines = doctorLines(report).join('\n');
    expect(lines).toContain('tried: /plans 404, /shop/subscription_plans 200');
    expect(lines).toContain(
      '~ publishing posts.get: GET /posts/{slug} → 404, found at /read/{slug} (proposed)',
    );
  });
});
