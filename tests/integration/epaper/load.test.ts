// The e-paper loader against the contract mock (started in-process on free ports), with real tokens
// from its `POST /auth/login`: who gets page images of a subscriber-only edition, and who never does.
import type { APIContext, AstroSession } from 'astro';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setSignedIn, type SignedIn } from '../../../src/lib/auth/session.ts';
import { subscriberCss } from '../../../src/lib/auth/subscriber-css.ts';
import { EDITIONS_PER_PAGE, loadEditions, loadReader } from '../../../src/lib/epaper/load.ts';
import { imagePath } from '../../../src/lib/images/address.ts';
import { imageRoute } from '../../../src/lib/images/route.ts';
import { imageSecret } from '../../../src/lib/images/shared-pipeline.ts';
import { siteUpstream } from '../../../src/lib/services/clients.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { NotFoundError } from '../../../src/lib/upstream/errors.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { PASSWORD, useMock } from '../harness.ts';

const mock = useMock({ limits: { publicPerMinute: 0, tokenPerMinute: 0 } });
let tenant: Tenant;

interface ApiEdition {
  slug: string;
  is_free: boolean;
  page_count: number;
  published_at: string;
}
let editions: ApiEdition[];

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${mock.publishingUrl}${path}`, {
    ...init,
    headers: { 'X-Tenant': 'daily-planet', 'Content-Type': 'application/json', ...init.headers },
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

/** A real session value: token from the mock's login, user as the auth engineer stores it. */
async function signIn(role: 'subscriber' | 'reader', site = 'daily-planet'): Promise<SignedIn> {
  const { data } = await api<{ data: { token: string; user: { id: number; name: string } } }>(
    '/auth/login',
    {
      method: 'POST',
      headers: { 'X-Tenant': site },
      body: JSON.stringify({ email: `${role}@masthead.test`, password: PASSWORD }),
    },
  );
  return {
    token: data.token,
    user: {
      id: data.user.id,
      name: data.user.name,
      roles: ['subscriber'],
      hasActiveSubscription: role === 'subscriber',
    },
  };
}

const paidSlug = () => editions.find((e) => !e.is_free)?.slug ?? '';
const freeSlug = () => editions.find((e) => e.is_free)?.slug ?? '';

beforeAll(async () => {
  tenant = buildTenant({
    id: 'daily-planet',
    publishing: { baseUrl: mock.publishingUrl, epaperPlans: ['digital-epaper', 'annual'] },
  });
  editions = (await api<{ data: ApiEdition[] }>('/epaper?per_page=50')).data;
});

describe('loadEditions', () => {
  it('lists every edition newest first, 12 to a page, without pages', async () => {
    const list = await loadEditions(tenant, 1);
    expect(list.items.length).toBe(Math.min(editions.length, EDITIONS_PER_PAGE));
    expect(list.page.total).toBe(editions.length);
    const dates = list.items.map((e) => e.published_at ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    for (const edition of list.items) {
      expect(edition.cover_image_url).toMatch(/^http/);
      expect(edition.pages).toEqual([]);
    }
    // The newest is subscriber-only; every third is free.
    expect(list.items[0]?.is_free).toBe(false);
    expect(list.items.filter((e) => e.is_free).length).toBe(3);
  });
});

describe('loadReader', () => {
  it('free edition: public pages, and the session is never read', async () => {
    const readSession = vi.fn(() => Promise.resolve(null));
    const data = await loadReader(tenant, freeSlug(), readSession);
    expect(readSession).not.toHaveBeenCalled();
    expect(data.kind).toBe('reader');
    expect(data.cache).toBe('public');
    if (data.kind !== 'reader') return;
    const expected = editions.find((e) => e.slug === freeSlug())?.page_count;
    expect(data.pages.map((p) => p.page_number)).toEqual(
      Array.from({ length: expected ?? 0 }, (_, i) => i + 1),
    );
    expect(data.pages[0]).toMatchObject({ width: 1200, height: 1600 });
  });

  it('subscriber-only edition, anonymous: private paywall with the active plans, no pages', async () => {
    const readSession = vi.fn(() => Promise.resolve(null));
    const data = await loadReader(tenant, paidSlug(), readSession);
    expect(readSession).toHaveBeenCalledOnce();
    expect(data.kind).toBe('paywall');
    expect(data.cache).toBe('private');
    if (data.kind !== 'paywall') return;
    expect(data.signedIn).toBeNull();
    expect(data.edition.pages).toEqual([]);
    // Only the plans the tenant names as unlocking the e-paper, in its order (not the API's).
    expect(data.plans.map((p) => p.slug)).toEqual(['digital-epaper', 'annual']);
    expect(JSON.stringify(data)).not.toContain('/pages/');
  });

  it('paying subscriber: pages from their own token; an anonymous read afterwards still gets none', async () => {
    const subscriber = await signIn('subscriber');
    const data = await loadReader(tenant, paidSlug(), () => Promise.resolve(subscriber));
    expect(data.kind).toBe('reader');
    expect(data.cache).toBe('private');
    if (data.kind !== 'reader') return;
    // Their session already says so: nothing to write.
    expect(data.signedIn).toBeUndefined();
    expect(data.pages.length).toBeGreaterThanOrEqual(8);
    expect(data.pages[0]?.image_url).toContain(`/epaper/${paidSlug()}/pages/1.svg`);

    // The personal copy is cached per token: it must not answer an anonymous visitor.
    const anonymous = await loadReader(tenant, paidSlug(), () => Promise.resolve(null));
    expect(anonymous.kind).toBe('paywall');
    expect(JSON.stringify(anonymous)).not.toContain('/pages/');
  });

  it('signed in without a subscription: paywall that knows the account', async () => {
    const reader = await signIn('reader');
    const data = await loadReader(tenant, paidSlug(), () => Promise.resolve(reader));
    expect(data.kind).toBe('paywall');
    if (data.kind !== 'paywall') return;
    expect(data.signedIn?.user.name).toBe(reader.user.name);
    expect(data.expired).toBe(false);
    expect(JSON.stringify(data)).not.toContain('/pages/');
  });

  it('a revoked token: paywall offering to log in again, not an error', async () => {
    const subscriber = await signIn('subscriber');
    await api('/auth/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${subscriber.token}` },
    });
    const data = await loadReader(tenant, paidSlug(), () => Promise.resolve(subscriber));
    expect(data.kind).toBe('paywall');
    if (data.kind !== 'paywall') return;
    expect(data.signedIn).toBeNull();
    // The page forgets the sign-in: "Log in" must not pass the reader straight back here.
    expect(data.expired).toBe(true);
  });

  it('unknown edition → NotFoundError', async () => {
    await expect(
      loadReader(tenant, 'no-such-edition', () => Promise.resolve(null)),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('loadReader after the account changes upstream', () => {
  const account = (email: string) => {
    const user = mock.state.publishing.sites
      .get('daily-planet')
      ?.users.find((u) => u.email === email);
    if (!user) throw new Error(`no mock user ${email}`);
    return user;
  };

  it('a reader who subscribes reads the edition on their next visit, not a kept paywall', async () => {
    const reader = await signIn('reader');
    const before = await loadReader(tenant, paidSlug(), () => Promise.resolve(reader));
    expect(before.kind).toBe('paywall');

    // They subscribe on the publisher's subscribe page (subscribe_url) and come back.
    account('reader@masthead.test').hasActiveSubscription = true;
    try {
      const after = await loadReader(tenant, paidSlug(), () => Promise.resolve(reader));
      expect(after.kind).toBe('reader');
      if (after.kind === 'reader') expect(after.pages.length).toBeGreaterThan(0);
      // The page keeps what it learnt in the session: the header stops offering "Subscribe".
      const kept = after.kind === 'reader' ? after.signedIn : undefined;
      expect(subscriberCss(kept?.user ?? reader.user)).toContain('.when-unsubscribed{display:none');
    } finally {
      account('reader@masthead.test').hasActiveSubscription = false;
    }
  });

  it('a subscriber whose token is revoked gets the paywall once their copy is past fresh', async () => {
    const subscriber = await signIn('subscriber');
    const read = () => loadReader(tenant, paidSlug(), () => Promise.resolve(subscriber));
    expect((await read()).kind).toBe('reader');
    await api('/auth/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${subscriber.token}` },
    });
    // Six minutes later (the edition is fresh for five, then kept an hour): the old copy may show
    // once while it is asked again; that refused refresh ends it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 });
    try {
      await read();
      await siteUpstream().cache.settle();
      const after = await read();
      expect(after.kind).toBe('paywall');
      if (after.kind === 'paywall') expect(after.expired).toBe(true);
      expect(JSON.stringify(after)).not.toContain('/pages/');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("checking a subscriber's page picture (the image route, src/lib/images/route.ts)", () => {
  it('reads the edition, not the header categories no picture shows', async () => {
    // A tenant no other test reads: nothing of it cached, so a categories read would reach the mock.
    const id = 'harbour-times';
    const own = buildTenant({ ...tenant, id });
    const { data } = await api<{ data: ApiEdition[] }>('/epaper?per_page=50', {
      headers: { 'X-Tenant': id },
    });
    const slug = data.find((edition) => edition.is_free)?.slug ?? '';
    expect((await loadReader(own, slug, () => Promise.resolve(null))).kind).toBe('reader');
    expect(Object.keys(mock.state.tenantStats[id] ?? {})).not.toContain('GET /categories');
  });

  it('reads no plans: only the paywall shows them, and a picture is no paywall', async () => {
    // A tenant no other test reads, signed in without a subscription: the picture is refused.
    const id = 'alpine-post';
    const own = buildTenant({ ...tenant, id });
    const { data } = await api<{ data: ApiEdition[] }>('/epaper?per_page=50', {
      headers: { 'X-Tenant': id },
    });
    const edition = data.find((e) => !e.is_free)?.slug ?? '';
    const values = new Map<string, unknown>();
    const session = {
      get: (key: string) => Promise.resolve(values.get(key)),
      set: (key: string, value: unknown) => values.set(key, value),
    } as unknown as AstroSession;
    setSignedIn(session, own, await signIn('reader', id));
    const target = { kind: 'edition-page', edition, page: 1 } as const;
    const url = `http://alpine.localhost${imagePath(imageSecret(), { target, width: 480, format: 'webp' })}`;
    const response = await imageRoute({
      locals: { tenantMatchOrNull: { tenant: own } },
      session,
      url: new URL(url),
      request: new Request(url),
    } as unknown as APIContext);
    expect(response.status).toBe(403);
    // The 403 says the edition was read with the reader's token; no plan list was.
    expect(Object.keys(mock.state.tenantStats[id] ?? {})).not.toContain('GET /plans');
  });
});
