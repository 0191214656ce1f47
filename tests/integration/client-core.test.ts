// The shared client core against the contract mock (in-process, free ports), through the two
// services' real wiring: what one read costs, which reads share a cache entry, which budget pays.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lodgingCore } from '../../src/lib/lodging/client.ts';
import { propertyListSchema } from '../../src/lib/lodging/schema.ts';
import { publishingCore } from '../../src/lib/publishing/client.ts';
import { categoryListSchema, meSchema } from '../../src/lib/publishing/schema.ts';
import { loginSchema } from '../../src/lib/upstream/parse.ts';
import { budgetKeys } from '../../src/lib/upstream/budget.ts';
import type { BudgetKey } from '../../src/lib/upstream/budget.ts';
import { urlPath } from '../../src/lib/upstream/client-core.ts';
import type { Upstream } from '../../src/lib/upstream/runtime.ts';
import { TTL } from '../../src/lib/upstream/ttl.ts';
import { ctl, demo, freshUpstream, PASSWORD, startTestMock } from './harness.ts';
import type { Mock } from './harness.ts';

let mock: Mock;
let up: Upstream;

beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  await ctl.reset(mock);
  up = freshUpstream().up;
});

const publishing = (tenantId = 'daily-planet', token?: string) =>
  publishingCore({ tenantId, baseUrl: mock.publishingUrl, upstream: up, token });

const categories = {
  operation: 'categories.list',
  schema: categoryListSchema,
  path: '/categories',
  ttl: TTL.categoryList,
} as const;

const me = {
  operation: 'auth.me',
  schema: meSchema,
  path: '/auth/me',
  access: 'personal',
  ttl: TTL.me,
} as const;

async function calls(route: string): Promise<number> {
  return (await ctl.stats(mock)).publishing.routes[route] ?? 0;
}

async function signIn(role: 'subscriber' | 'reader'): Promise<string> {
  const result = await publishing().call({
    operation: 'auth.login',
    schema: loginSchema,
    method: 'POST',
    path: '/auth/login',
    body: { email: `${role}@masthead.test`, password: PASSWORD },
  });
  return result.token;
}

/** How much of each budget a piece of work spends. */
async function spent(keys: BudgetKey[], work: () => Promise<unknown>): Promise<number[]> {
  const left = () =>
    Promise.all(keys.map(async (key) => (await up.budget.standing(key)).remaining));
  const before = await left();
  await work();
  const after = await left();
  return before.map((value, i) => value - (after[i] ?? 0));
}

describe('client core', () => {
  it('sends a call with its method and body and gives the parsed answer', async () => {
    const token = await signIn('subscriber');
    expect(token).toMatch(/\S/);
    expect(await calls('POST /auth/login')).toBe(1);
  });

  it('reads once per key; `fresh` reads again and stores the new value', async () => {
    const core = publishing();
    const first = await core.read(categories);
    expect(await core.read(categories)).toStrictEqual(first);
    expect(await calls('GET /categories')).toBe(1);
    await core.read(categories, { fresh: true });
    expect(await calls('GET /categories')).toBe(2);
    await core.read(categories);
    expect(await calls('GET /categories')).toBe(2);
  });

  it('keys reads by tenant, path parameters and query', async () => {
    await publishing('daily-planet').read(categories);
    await publishing('harbour-times').read(categories);
    expect(await calls('GET /categories')).toBe(2);

    const core = publishing();
    const page = (n: number) =>
      core.read({ ...categories, operation: 'categories.page', query: { page: n } });
    await page(1);
    await page(2);
    await page(1);
    expect(await calls('GET /categories')).toBe(4);
  });

  it('keeps personal reads per user and shares public reads between users', async () => {
    const [subscriber, reader] = [await signIn('subscriber'), await signIn('reader')];
    const asSubscriber = publishing('daily-planet', subscriber);
    const asReader = publishing('daily-planet', reader);

    expect((await asSubscriber.read(me)).email).toBe('subscriber@masthead.test');
    expect((await asReader.read(me)).email).toBe('reader@masthead.test');
    expect((await asSubscriber.read(me)).email).toBe('subscriber@masthead.test');
    expect(await calls('GET /auth/me')).toBe(2);

    await asSubscriber.read(categories);
    await asReader.read(categories);
    await publishing().read(categories);
    expect(await calls('GET /categories')).toBe(1);
  });

  it('applies `map` once, before the value is cached', async () => {
    let mapped = 0;
    const spec = {
      ...categories,
      map: (list: { items: { slug: string }[] }) => {
        mapped += 1;
        return list.items.map((category) => category.slug);
      },
    };
    const slugs = await publishing().read(spec);
    expect(slugs.length).toBeGreaterThan(0);
    expect(await publishing().read(spec)).toStrictEqual(slugs);
    expect(mapped).toBe(1);
  });

  it('charges public reads to the shared budget and personal reads to the token’s', async () => {
    const token = await signIn('subscriber');
    const keys = [
      budgetKeys.publishingPublic(mock.publishingUrl),
      budgetKeys.publishingToken(mock.publishingUrl, 'daily-planet', token),
    ];
    const core = publishing('daily-planet', token);
    expect(await spent(keys, () => core.read(categories))).toEqual([1, 0]);
    expect(await spent(keys, () => core.read(me))).toEqual([0, 1]);
    // Cache hits cost nothing.
    expect(await spent(keys, () => Promise.all([core.read(categories), core.read(me)]))).toEqual([
      0, 0,
    ]);
  });

  it('charges lodging reads to the account’s token', async () => {
    const account = demo.lodging['harbour-hotels'];
    if (!account) throw new Error('demo account missing');
    const core = lodgingCore({
      accountKey: 'harbour-hotels',
      baseUrl: mock.lodgingUrl,
      upstream: up,
      token: account.readToken,
    });
    const key = budgetKeys.lodging(mock.lodgingUrl, 'harbour-hotels', account.readToken);
    const read = () =>
      core.read({
        operation: 'properties.list',
        schema: propertyListSchema,
        path: '/properties',
        ttl: TTL.propertyList,
      });
    expect(await spent([key], read)).toEqual([1]);
    expect((await read()).items.map((p) => p.id).sort()).toEqual([...account.propertyIds].sort());
  });
});

describe('urlPath', () => {
  it.each([
    ['a plain slug', 'hello-world', '/posts/hello-world'],
    ['spaces and slashes', 'a b/c', '/posts/a%20b%2Fc'],
    ['a query-like value', '?x=1&y', '/posts/%3Fx%3D1%26y'],
  ])('encodes %s', (_case, slug, expected) => {
    expect(urlPath`/posts/${slug}`).toBe(expected);
  });
});
