import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_PORT, E2E_PURGE_SECRET, checkA11y, tenantUrl } from './helpers.ts';
import { upstreamOf } from './images.ts';
import { raw } from './raw-http.ts';
import { STREAM_CACHE, streamChangeShownWithin } from '../../src/lib/streams/cache-life.ts';

const API = 'http://127.0.0.1:4010/api/v1';
const PLAYER_ORIGIN = 'http://127.0.0.1:4010';
const RANK: Record<string, number> = { live: 0, scheduled: 1, ended: 2 };

interface ApiStream {
  title: string;
  slug: string;
  status: string;
}

async function apiStreams(request: APIRequestContext, tenant: string): Promise<ApiStream[]> {
  const response = await request.get(`${API}/streams?per_page=50`, {
    headers: { 'X-Tenant': tenant },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: ApiStream[] }).data;
}

async function firstWithStatus(
  request: APIRequestContext,
  tenant: string,
  status: string,
): Promise<ApiStream> {
  const stream = (await apiStreams(request, tenant)).find((s) => s.status === status);
  expect(stream, `a ${status} stream in the ${tenant} seed`).toBeDefined();
  return stream!;
}

/** Console errors (CSP violations are reported there) and uncaught page errors. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function expectNoScripts(page: Page): Promise<void> {
  await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
}

async function expectFitsWidth(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 800 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test('the list shows live streams, then scheduled, then ended, with text badges', async ({
  page,
  request,
}) => {
  const seeded = await apiStreams(request, 'daily-planet');
  // A copy an earlier test left past its time is served stale (10 s) while it renders again.
  const fresh = async () => {
    const response = await page.goto(tenantUrl('daily-planet', '/streams'));
    expect(response?.status()).toBe(200);
    return response?.headers()['cache-control'];
  };
  await expect.poll(fresh).toContain('s-maxage=30');
  // One word for the section: the menu entry, the breadcrumb and the heading agree.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Live');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Live');
  await expect(page.locator('main p.muted').first()).toHaveText(`${seeded.length} streams`);

  const cards = page.locator('article.stream-card');
  await expect(cards).toHaveCount(seeded.length);
  const statuses = await cards.evaluateAll((nodes) =>
    nodes.map((node) => node.getAttribute('data-status') ?? ''),
  );
  expect(new Set(statuses)).toEqual(new Set(['live', 'scheduled', 'ended']));
  const ranks = statuses.map((status) => RANK[status] ?? 99);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  // The upstream's order (scheduled soonest first, ended latest first) is kept.
  expect(await cards.locator('.title').allInnerTexts()).toEqual(seeded.map((s) => s.title));

  const live = cards.filter({ has: page.locator('.badge.live') }).first();
  await expect(live.locator('.badge')).toHaveText('Live');
  await expect(live.locator('.when')).toContainText('Started');
  const scheduled = cards.filter({ has: page.locator('.badge.scheduled') }).first();
  await expect(scheduled.locator('.badge')).toHaveText('Upcoming');
  await expect(scheduled.locator('.when')).toContainText(/^Starts [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(scheduled.locator('.when time')).toHaveAttribute('datetime', /Z$/);
  const ended = cards.filter({ has: page.locator('.badge.ended') }).first();
  await expect(ended.locator('.badge')).toHaveText('Ended');
  await expect(ended.locator('.when')).toContainText('Ended');
  const thumbnail = await cards.first().locator('img').getAttribute('src');
  expect(upstreamOf(thumbnail)).toMatch(/\/streams\/.+\.(svg|jpg)$/);

  // One small script: the clock that moves upcoming badges on at their start (below).
  await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(1);
  await checkA11y(page);
  await expectFitsWidth(page);
});

test('a list left open past a start says "Starting soon" then, and "Delayed" 15 minutes on, as a reload would', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto(tenantUrl('daily-planet', '/streams'));
  const card = page.locator('article.stream-card[data-status="scheduled"]').first();
  const title = await card.locator('.title').innerText();
  const start = Date.parse((await card.locator('.when time').getAttribute('datetime')) ?? '');
  const shown = page.locator('article.stream-card').filter({ hasText: title });
  await expect(shown.locator('.badge')).toHaveText('Upcoming');

  // Before: "Upcoming" until the reader reloaded.
  await page.clock.fastForward(start - (await page.evaluate(() => Date.now())) + 2_000);
  await expect(shown.locator('.badge')).toHaveText('Starting soon');
  await expect(shown).toHaveAttribute('data-status', 'starting');
  await expect(shown.locator('.badge')).toHaveClass(/\bstarting\b/);
  await expect(shown.locator('.when')).toContainText(/^Starts /);

  await page.clock.fastForward('15:00');
  await expect(shown.locator('.badge')).toHaveText('Delayed');
  await expect(shown).toHaveAttribute('data-status', 'delayed');
  await expect(shown.locator('.when')).toContainText(/^Should have started /);
  // Live and ended streams are the upstream's to say: left as they were.
  await expect(page.locator('article.stream-card .badge.live').first()).toHaveText('Live');
  await expect(page.locator('article.stream-card .badge.ended').first()).toHaveText('Ended');
});

test('dates follow the tenant’s locale', async ({ page }) => {
  await page.goto(tenantUrl('harbour-times', '/streams'));
  const scheduled = page.locator('article.stream-card[data-status="scheduled"] .when').first();
  // en-GB: "23 Nov 2026, 18:00".
  await expect(scheduled).toContainText(/^Starts \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
});

test('a live stream plays in a sandboxed frame from an allowed host, within the CSP', async ({
  page,
  request,
}) => {
  const live = await firstWithStatus(request, 'daily-planet', 'live');
  const errors = collectErrors(page);
  const response = await page.goto(tenantUrl('daily-planet', `/streams/${live.slug}`));
  expect(response?.status()).toBe(200);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`frame-src ${PLAYER_ORIGIN}`);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(live.title);
  await expect(page.locator('.stream .badge')).toHaveText('Live');

  const frame = page.locator('iframe');
  await expect(frame).toHaveCount(1);
  await expect(frame).toHaveAttribute(
    'sandbox',
    'allow-scripts allow-same-origin allow-presentation',
  );
  await expect(frame).toHaveAttribute('allow', 'autoplay; fullscreen; picture-in-picture');
  await expect(frame).toHaveAttribute('loading', 'lazy');
  await expect(frame).toHaveAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
  await expect(frame).toHaveAttribute('title', `Video player: ${live.title}`);
  const src = new URL((await frame.getAttribute('src')) ?? '');
  expect(src.origin).toBe(PLAYER_ORIGIN);

  // 16:9 whatever the width.
  const box = await frame.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.width / box!.height).toBeCloseTo(16 / 9, 1);

  // The player page actually loads inside the frame.
  await frame.scrollIntoViewIfNeeded();
  await expect(
    page.frameLocator('iframe').locator('[data-testid="mock-player"][data-status="live"]'),
  ).toBeVisible();

  await expectNoScripts(page);
  await checkA11y(page);
  expect(errors).toEqual([]);
  await expectFitsWidth(page);
});

test('scheduled and ended streams say when', async ({ page, request }) => {
  const scheduled = await firstWithStatus(request, 'daily-planet', 'scheduled');
  await page.goto(tenantUrl('daily-planet', `/streams/${scheduled.slug}`));
  await expect(page.locator('.stream .badge')).toHaveText('Upcoming');
  await expect(page.locator('.stream .when')).toContainText(/^Starts /);

  const ended = await firstWithStatus(request, 'daily-planet', 'ended');
  await page.goto(tenantUrl('daily-planet', `/streams/${ended.slug}`));
  await expect(page.locator('.stream .badge')).toHaveText('Ended');
  await expect(page.locator('.stream .when')).toContainText(/^Ended /);
});

test('links stay inside a path prefix', async ({ page, request }) => {
  const [first] = await apiStreams(request, 'harbour-times');
  await page.goto(`http://localhost:${E2E_PORT}/harbour-times/streams`);
  const link = page.locator('article.stream-card .title a').first();
  await expect(link).toHaveAttribute('href', `/harbour-times/streams/${first!.slug}`);
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first!.title);
  await expect(page.getByRole('link', { name: 'All streams' })).toHaveAttribute(
    'href',
    '/harbour-times/streams',
  );
});

test('unknown streams and pages beyond the list are 404', async ({ page }) => {
  for (const path of ['/streams/no-such-stream', '/streams?page=2', '/streams?page=abc']) {
    expect((await page.goto(tenantUrl('daily-planet', path)))?.status(), path).toBe(404);
  }
});

test('a tenant without streams answers 404', async ({ page, request }) => {
  const [any] = await apiStreams(request, 'alpine-post');
  for (const path of ['/streams', `/streams/${any?.slug ?? 'x'}`]) {
    expect((await page.goto(tenantUrl('alpine-post', path)))?.status(), path).toBe(404);
  }
  await expect(page.getByRole('link', { name: 'Live', exact: true })).toHaveCount(0);
});

/**
 * The newsroom's "now" after an edit (`POST /_purge`, the e2e server's PURGE_SECRETS): every page and
 * read the site kept of `tenant` is dropped. No watcher looks at streams, so without it a change
 * shows within the caches' lifetimes (`streamChangeShownWithin`: 80 s for a stream page).
 */
async function purgeEverything(tenant: string): Promise<void> {
  // Node cannot resolve *.localhost: the tenant's Host on the loopback address.
  const body = JSON.stringify({ everything: true });
  const answer = await raw(
    E2E_PORT,
    {
      method: 'POST',
      path: '/_purge',
      headers: {
        Host: `${tenant}.localhost:${E2E_PORT}`,
        Authorization: `Bearer ${E2E_PURGE_SECRET}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      },
    },
    body,
  );
  expect(answer.status, answer.body).toBe(202);
}

test.describe('a page kept in the cache before a stream starts', () => {
  const tenant = 'harbour-times';
  const CONTROL = 'http://127.0.0.1:4009';
  test.afterAll(async ({ request }) => {
    await request.post(`${CONTROL}/reset`);
  });

  test('says live on the first view after the start: neither the stream page nor the band says upcoming', async ({
    page,
    request,
  }) => {
    // Readers had both pages before the editor moved the start (every cache holds the old time);
    // the newsroom purges after the edit, so both pages name the new time within a few views
    // (without it, within the caches' lifetimes: src/lib/streams/cache-life.ts
    // `streamChangeShownWithin`, 80 s for a stream page).
    const settleMs = 20_000;
    // The start comes after both pages have taken it (at most `settleMs`), with time for the one
    // view and check before it: the test waits for it in real time.
    const aheadMs = settleMs + 15_000;
    test.setTimeout(aheadMs + 120_000);
    const setStreams = async (body: Record<string, unknown>) => {
      const response = await request.post(`${CONTROL}/streams`, { data: { tenant, ...body } });
      expect(response.ok()).toBe(true);
    };
    const { slug } = await firstWithStatus(request, tenant, 'scheduled');
    const streamPage = tenantUrl(tenant, `/streams/${slug}`);
    const front = tenantUrl(tenant, '/');
    for (const url of [streamPage, front]) expect((await page.goto(url))?.status()).toBe(200);

    // Whole seconds, far enough ahead for the site's caches to take the new time first (below).
    const start = Math.ceil((Date.now() + aheadMs) / 1000) * 1000;
    const startIso = new Date(start).toISOString();
    const londonDay = (time: number) =>
      new Date(time).toLocaleDateString('en-GB', { timeZone: 'Europe/London' });
    // The band announces a start "today": near midnight in London there is nothing to announce.
    test.skip(londonDay(start) !== londonDay(start + 60_000), 'too close to midnight in London');
    await setStreams({ status: 'ended' });
    await setStreams({ slug, status: 'scheduled', at: startIso });
    await purgeEverything(tenant);

    // Both pages as readers get them before the start (from the route cache), once they name it.
    // Read at once (a locator would wait for an element the page may not have yet).
    const announced = async (url: string, selector: string) => {
      await page.goto(url);
      return page.evaluate(
        (found) => document.querySelector(found)?.getAttribute('datetime') ?? null,
        selector,
      );
    };
    await expect
      .poll(
        async () => [
          await announced(streamPage, 'article.stream .when time'),
          await announced(front, '[data-live-band="today"] time'),
        ],
        { timeout: settleMs, intervals: [1_000] },
      )
      .toEqual([startIso, startIso]);
    await page.goto(streamPage);
    await expect(page.locator('article.stream')).toHaveAttribute('data-status', 'scheduled');
    expect(start - Date.now()).toBeGreaterThan(0);

    // The upstream says live at the start, as the player does.
    await page.waitForTimeout(Math.max(0, start - Date.now()) + 1_000);
    await setStreams({ slug, status: 'live' });
    await page.goto(streamPage);
    await expect(page.locator('article.stream')).toHaveAttribute('data-status', 'live');
    await page.goto(front);
    await expect(page.locator('[data-live-band]')).toHaveAttribute('data-live-band', 'live');
  });
});

test.describe('a stream the upstream still calls scheduled after its start', () => {
  const tenant = 'harbour-times';
  const CONTROL = 'http://127.0.0.1:4009';
  test.afterAll(async ({ request }) => {
    await request.post(`${CONTROL}/reset`);
  });

  const settleMs = streamChangeShownWithin(STREAM_CACHE.maxAge) * 1000;
  const statusOf = async (page: Page, url: string): Promise<string | null> => {
    await page.goto(url);
    return page.locator('article.stream').getAttribute('data-status');
  };

  test('20 minutes late: "Delayed", when it should have started, the player shown; after live ones in the list', async ({
    page,
    request,
  }) => {
    test.setTimeout(settleMs + 60_000);
    const { slug } = await firstWithStatus(request, tenant, 'scheduled');
    const due = new Date(Math.floor((Date.now() - 20 * 60_000) / 1000) * 1000);
    const response = await request.post(`${CONTROL}/streams`, {
      data: { tenant, slug, status: 'scheduled', at: due.toISOString() },
    });
    expect(response.ok()).toBe(true);
    await purgeEverything(tenant);
    const streamPage = tenantUrl(tenant, `/streams/${slug}`);
    await expect
      .poll(() => statusOf(page, streamPage), { timeout: settleMs, intervals: [1_000] })
      .toBe('delayed');
    await expect(page.locator('article.stream .badge')).toHaveText('Delayed');
    const london = due.toLocaleTimeString('en-GB', {
      timeZone: 'Europe/London',
      hour: '2-digit',
      minute: '2-digit',
    });
    await expect(page.locator('article.stream .when')).toContainText(
      new RegExp(`^Should have started .*${london} GMT$`),
    );
    await expect(page.locator('[data-countdown]')).toBeHidden();
    await expect(page.locator('[data-player]')).toBeVisible();

    // The list may be kept from before the change, as long as any change (the same bound).
    const listed = async () => {
      await page.goto(tenantUrl(tenant, '/streams'));
      return page
        .locator('article.stream-card')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status') ?? ''));
    };
    await expect
      .poll(async () => (await listed()).includes('delayed'), {
        timeout: settleMs,
        intervals: [1_000],
      })
      .toBe(true);
    const statuses = await listed();
    const late = statuses.indexOf('delayed');
    expect(statuses.slice(0, late).every((status) => status === 'live')).toBe(true);
    expect(statuses.slice(late + 1)).not.toContain('live');
    await checkA11y(page);
  });

  test('a page open at the start says "Starting soon" with the player, then "Delayed" 15 minutes on, as a reload would', async ({
    page,
    request,
  }) => {
    test.setTimeout(settleMs + 60_000);
    const { slug } =
      (await apiStreams(request, tenant)).filter((s) => s.status === 'scheduled')[1] ??
      (await firstWithStatus(request, tenant, 'scheduled'));
    const start = Math.ceil((Date.now() + 10 * 60_000) / 1000) * 1000;
    const startIso = new Date(start).toISOString();
    const response = await request.post(`${CONTROL}/streams`, {
      data: { tenant, slug, status: 'scheduled', at: startIso },
    });
    expect(response.ok()).toBe(true);
    await page.clock.install();
    const streamPage = tenantUrl(tenant, `/streams/${slug}`);
    await expect
      .poll(
        async () => {
          await page.goto(streamPage);
          return page.locator('article.stream .when time').getAttribute('datetime');
        },
        { timeout: settleMs, intervals: [1_000] },
      )
      .toBe(startIso);
    await expect(page.locator('article.stream .badge')).toHaveText('Upcoming');
    await expect(page.locator('[data-countdown]')).toBeVisible();
    await expect(page.locator('[data-player]')).toBeHidden();

    await page.clock.fastForward(start - (await page.evaluate(() => Date.now())) + 2_000);
    await expect(page.locator('article.stream .badge')).toHaveText('Starting soon');
    // What the page says it is, as styles and scripts read it, is what the badge says.
    await expect(page.locator('article.stream')).toHaveAttribute('data-status', 'starting');
    await expect(page.locator('article.stream .badge')).toHaveClass(/\bstarting\b/);
    await expect(page.locator('[data-countdown]')).toBeHidden();
    await expect(page.locator('[data-player]')).toBeVisible();
    await expect(page.locator('article.stream .when')).toContainText(/^Starts /);

    await page.clock.fastForward('15:00');
    await expect(page.locator('article.stream .badge')).toHaveText('Delayed');
    await expect(page.locator('article.stream')).toHaveAttribute('data-status', 'delayed');
    await expect(page.locator('article.stream .when')).toContainText(/^Should have started /);
  });
});
