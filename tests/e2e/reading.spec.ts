import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { checkA11y, E2E_PORT, tenantUrl } from './helpers.ts';

const API = 'http://127.0.0.1:4010/api/v1';

interface ApiPost {
  title: string;
  slug: string;
}

async function apiPosts(
  request: APIRequestContext,
  tenant: string,
  query = '',
): Promise<{ data: ApiPost[]; meta: { total: number; last_page: number } }> {
  const params = new URLSearchParams({
    per_page: '50',
    ...Object.fromEntries(new URLSearchParams(query)),
  });
  const response = await request.get(`${API}/posts?${params}`, { headers: { 'X-Tenant': tenant } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { data: ApiPost[]; meta: { total: number; last_page: number } };
}

async function cardTitles(page: import('@playwright/test').Page): Promise<string[]> {
  return page.locator('article.card .title').allInnerTexts();
}

test('the home page lists this tenant’s posts and not another’s', async ({ page, request }) => {
  const own = (await apiPosts(request, 'daily-planet')).data.map((post) => post.title);
  // Titles only the other tenant has (some, like the welcome post, exist in both on purpose).
  const other = new Set(
    (await apiPosts(request, 'harbour-times')).data
      .map((post) => post.title)
      .filter((title) => !own.includes(title)),
  );
  expect(other.size).toBeGreaterThan(10);
  await page.goto(tenantUrl('daily-planet', '/'));
  const titles = await cardTitles(page);
  expect(titles.length).toBeGreaterThanOrEqual(10);
  for (const title of titles) {
    expect(own).toContain(title);
    expect(other.has(title)).toBe(false);
  }
  await expect(page.getByRole('heading', { name: 'Featured' })).toBeVisible();
  await checkA11y(page);
});

test('pagination walks to the last page with rel prev/next', async ({ page, request }) => {
  const { meta } = await apiPosts(request, 'harbour-times', '&per_page=10');
  await page.goto(tenantUrl('harbour-times', '/'));
  let pages = 1;
  while (await page.locator('link[rel="next"]').count()) {
    await page.getByRole('link', { name: 'Older →' }).click();
    pages += 1;
    await expect(page.locator('link[rel="prev"]')).toHaveCount(1);
    expect(pages).toBeLessThanOrEqual(meta.last_page);
  }
  expect(pages).toBe(meta.last_page);
  await expect(
    page.locator('[aria-current="page"]', { hasText: String(meta.last_page) }),
  ).toBeVisible();
  expect(
    (await page.goto(tenantUrl('harbour-times', `/?page=${meta.last_page + 1}`)))?.status(),
  ).toBe(404);
});

test('old ?page=N addresses answer with a permanent redirect to the path', async ({ request }) => {
  // Through the path prefix: Node's resolver (unlike Chromium's) knows no *.localhost names.
  const base = `http://127.0.0.1:${E2E_PORT}/daily-planet`;
  for (const [from, to] of [
    ['/?page=2', '/daily-planet/page/2'],
    ['/categories/sport?page=2', '/daily-planet/categories/sport/page/2'],
    ['/page/1', '/daily-planet'],
  ] as const) {
    const response = await request.get(`${base}${from}`, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    expect(new URL(response.headers()['location'] ?? '', base).pathname).toBe(to);
  }
});

test('a later page of a list: its section is marked as the one the reader is in, and sign-in comes back to it', async ({
  page,
  request,
}) => {
  await page.goto(tenantUrl('daily-planet', '/categories/sport/page/2'));
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Sport', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const login = page.getByRole('link', { name: 'Log in' });
  const next = async () =>
    new URL((await login.getAttribute('href')) ?? '', page.url()).searchParams.get('next');
  expect(await next()).toBe('/categories/sport/page/2');
  expect(
    (await apiPosts(request, 'daily-planet', '&search=the&per_page=10')).meta.last_page,
  ).toBeGreaterThan(1);
  await page.goto(tenantUrl('daily-planet', '/search/page/2?q=the'));
  expect(await next()).toBe('/search/page/2?q=the');
  // Its title names the page, as every list's does from page 2 on.
  await expect(page).toHaveTitle(/^Search: the, page 2 · /);
});

test('an upper-case slug (typed, or mangled by a mail client) answers with a permanent redirect to the lower-case address', async ({
  request,
}) => {
  const base = `http://127.0.0.1:${E2E_PORT}/daily-planet`;
  for (const [from, to] of [
    [
      '/posts/Welcome-To-Our-New-Website?reply=1',
      '/daily-planet/posts/welcome-to-our-new-website?reply=1',
    ],
    ['/categories/SPORT/page/2', '/daily-planet/categories/sport/page/2'],
    ['/categories/Sport/page/1', '/daily-planet/categories/sport'],
  ] as const) {
    const response = await request.get(`${base}${from}`, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    const location = new URL(response.headers()['location'] ?? '', base);
    expect(`${location.pathname}${location.search}`).toBe(to);
    expect((await request.get(location.href, { maxRedirects: 0 })).status(), to).toBe(200);
  }
});

test('a post renders sanitized content: nothing from the CMS runs', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(tenantUrl('alpine-post', '/posts/welcome-to-our-new-website'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.title()).not.toContain('XSS');
  const content = page.locator('.content');
  await expect(content.locator('script')).toHaveCount(0);
  await expect(content.locator('iframe[src*="evil.example"]')).toHaveCount(0);
  await expect(content.locator('[onerror]')).toHaveCount(0);
  await expect(content.locator('a[href^="javascript:"]')).toHaveCount(0);
  // What the CMS meant to show is still there.
  await expect(content.locator('h2').first()).toBeVisible();
  expect(await page.title()).not.toContain('XSS');
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(
    ld.some((json) => (JSON.parse(json) as { '@type': string })['@type'] === 'NewsArticle'),
  ).toBe(true);
  // Alpine Post speaks German: the breadcrumb's label too.
  await expect(page.getByRole('navigation', { name: 'Brotkrümelnavigation' })).toBeVisible();
  await checkA11y(page);
});

test('a draft or unknown slug gets the branded 404', async ({ page, request }) => {
  const drafts = await request.get(`${API}/posts/this-slug-does-not-exist`, {
    headers: { 'X-Tenant': 'daily-planet' },
  });
  expect(drafts.status()).toBe(404);
  for (const path of [
    '/posts/this-slug-does-not-exist',
    '/categories/no-such-category',
    '/tags/no-such-tag',
    '/plans/founding-member',
  ]) {
    const response = await page.goto(tenantUrl('daily-planet', path));
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  }
});

test('the same slug shows each tenant its own post', async ({ page }) => {
  await page.goto(tenantUrl('daily-planet', '/posts/welcome-to-our-new-website'));
  const daily = await page.locator('.content').innerText();
  await page.goto(tenantUrl('harbour-times', '/posts/welcome-to-our-new-website'));
  const harbour = await page.locator('.content').innerText();
  expect(daily).not.toEqual(harbour);
});

test('category and tag pages show the right posts', async ({ page, request }) => {
  const expected = (
    await apiPosts(request, 'daily-planet', '&category=sport&per_page=10')
  ).data.map((post) => post.title);
  await page.goto(tenantUrl('daily-planet', '/categories'));
  await page.getByRole('link', { name: 'Sport', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sport');
  expect(await cardTitles(page)).toEqual(expected);
  await checkA11y(page);

  await page.goto(tenantUrl('daily-planet', '/tags'));
  const firstTag = page.locator('.cloud a').first();
  const tagName = (await firstTag.innerText()).replace(/^#/, '');
  await firstTag.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`#${tagName}`);
  for (const card of await page.locator('article.card').all()) {
    await expect(card.locator('.tags')).toContainText(tagName);
  }
  await checkA11y(page);
});

test('search works without JavaScript, keeps the query and has an empty state', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const expected = await apiPosts(request, 'harbour-times', '&search=ferry');
  await page.goto(tenantUrl('harbour-times', '/'));
  await page.getByRole('link', { name: 'Search' }).click();
  await page.getByLabel('Search Harbour Times').fill('ferry');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByLabel('Search Harbour Times')).toHaveValue('ferry');
  await expect(page.getByRole('status')).toContainText(`${expected.meta.total} result`);
  await page.getByLabel('Search Harbour Times').fill('zzzqqqnothing');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('status')).toContainText('No articles match');
  await context.close();
});

test('on a wide screen, "no articles match" reads in lines as short as the results’', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(
    tenantUrl(
      'alpine-post',
      '/search?q=Lawinenwarndienst%20Oberengadin%20Wintersaison%20Pistenbully',
    ),
  );
  const none = page.getByRole('status');
  await expect(none).toContainText('Keine Artikel');
  // Before: lines of some 117 characters across the whole 72rem page.
  expect(await longestLineOf(none)).toBeLessThanOrEqual(90);
});

test('a search page past the last is not found, never “no results” for a query that has some', async ({
  request,
}) => {
  const { meta } = await apiPosts(request, 'harbour-times', '&search=ferry&per_page=10');
  expect(meta.total).toBeGreaterThan(0);
  // Through the path prefix: Node's resolver (unlike Chromium's) knows no *.localhost names.
  const base = `http://127.0.0.1:${E2E_PORT}/harbour-times/search`;
  const last = await request.get(`${base}/page/${meta.last_page}?q=ferry`);
  expect(last.status()).toBe(200);
  expect(await last.text()).toContain(`${meta.total} result`);
  const past = await request.get(`${base}/page/${meta.last_page + 1}?q=ferry`);
  expect(past.status()).toBe(404);
  expect(await past.text()).not.toContain('No articles match');
  // Without a query there are no later pages (a stale or edited link).
  expect((await request.get(`${base}/page/2`)).status()).toBe(404);
  // A query with no match at all still says so on its first page.
  const none = await request.get(`${base}?q=zzzqqqnothing`);
  expect(none.status()).toBe(200);
  expect(await none.text()).toContain('No articles match');
});

test('search: an odd query (quotes, markup, emoji, 300 characters) is shown as typed, cut between characters', async ({
  page,
}) => {
  // 17 units before the emoji: the 200th is the first half of one. Before, that half went into the
  // API's address, which could not be written (URIError): the reader got “Temporarily unavailable”.
  const start = '"quay" <b>no</b> ';
  const query = `${start}${'🚢'.repeat(150)}`;
  const kept = `${start}${'🚢'.repeat(91)}`;
  await page.goto(tenantUrl('harbour-times', `/search?q=${encodeURIComponent(query)}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search: ${kept}`);
  await expect(page.getByLabel('Search Harbour Times')).toHaveValue(kept);
  await expect(page.getByRole('status')).toContainText(`No articles match “${kept}”`);
});

test('search: a link whose query carries a right-to-left override cannot turn the page’s own words around', async ({
  page,
}) => {
  // U+202E reversed everything after it in the line: “… match “yrref”. .sdrow tnereffid ro rewef yrT”.
  await page.goto(tenantUrl('harbour-times', `/search?q=${encodeURIComponent('\u202eferry')}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search: ferry');
  await expect(page.getByLabel('Search Harbour Times')).toHaveValue('ferry');
  const status = page.getByRole('status');
  await expect(status).toContainText('“ferry”');
  expect(await page.title()).not.toContain('\u202e');
  expect(await status.textContent()).not.toContain('\u202e');
});

test('the search page passes axe', async ({ page }) => {
  await page.goto(tenantUrl('harbour-times', '/search?q=ferry'));
  await checkA11y(page);
});

test('plans show price in the tenant locale and a subscribe button', async ({ page }) => {
  await page.goto(tenantUrl('alpine-post', '/plans'));
  const plans = page.locator('article.plan');
  await expect(plans).toHaveCount(3);
  await expect(plans.first()).toContainText('CHF');
  await expect(plans.first().getByRole('link', { name: /Abonnieren/ })).toHaveAttribute(
    'href',
    /^https?:\/\//,
  );
  await checkA11y(page);
  await plans.first().locator('.name a').click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await checkA11y(page);
});

test('RSS and sitemap are XML on the tenant’s own host', async ({ page }) => {
  await page.goto(tenantUrl('daily-planet', '/robots.txt'));
  for (const [path, root] of [
    ['/rss.xml', 'rss'],
    ['/sitemap.xml', 'sitemapindex'],
    ['/sitemap-posts-1.xml', 'urlset'],
  ] as const) {
    // Fetched by the browser: only it resolves *.localhost names.
    const { status, xml } = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, xml: await response.text() };
    }, path);
    expect(status).toBe(200);
    expect(xml).toMatch(new RegExp(`<${root}[\\s>]`));
    const links = [...xml.matchAll(/<(?:link|loc)>([^<]+)</g)].map((m) => m[1] ?? '');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^http:\/\/daily-planet\.localhost:\d+\//);
  }
});

test('RSS is valid XML in the browser parser too', async ({ page }) => {
  await page.goto(tenantUrl('harbour-times', '/'));
  const errors = await page.evaluate(async () => {
    const out: string[] = [];
    for (const path of ['/rss.xml', '/sitemap.xml', '/sitemap-pages.xml', '/sitemap-posts-1.xml']) {
      const text = await (await fetch(path)).text();
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.querySelector('parsererror')) out.push(path);
    }
    return out;
  });
  expect(errors).toEqual([]);
});

test('reading pages ship no JavaScript; a post page only its comment form’s live count', async ({
  page,
}) => {
  const scripts = page.locator('script:not([type="application/ld+json"])');
  for (const path of ['/', '/categories/news', '/tags', '/search?q=news', '/plans']) {
    await page.goto(tenantUrl('daily-planet', path));
    expect(await scripts.count(), path).toBe(0);
  }
  await page.goto(tenantUrl('daily-planet', '/posts/welcome-to-our-new-website'));
  await expect(scripts).toHaveCount(1);
  // Without that one script, nothing on the page changes as the reader types.
  const content = await scripts.evaluate(async (script: HTMLScriptElement) =>
    script.src ? (await fetch(script.src)).text() : script.textContent,
  );
  expect(content).toContain('data-count');
});

/** The most characters on one line of `container`'s paragraphs (or of the paragraph itself), as laid out. */
function longestLineOf(container: Locator): Promise<number> {
  return container.evaluate((content) => {
    let longest = 0;
    for (const paragraph of content.matches('p') ? [content] : content.querySelectorAll('p')) {
      const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
      let top: number | null = null;
      let count = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let at = 0; at < (node.textContent ?? '').length; at += 1) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          if (top === null || Math.abs(rect.top - top) > 3)
            [top, longest, count] = [rect.top, Math.max(longest, count), 0];
          count += 1;
        }
      }
      longest = Math.max(longest, count);
    }
    return longest;
  });
}

test('on a 320 px phone, a long address in a caption, a quote’s source or a small heading wraps', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(
    tenantUrl('harbour-times', '/posts/tall-ship-aurora-returns-to-the-old-quay-after-refit'),
  );
  const url =
    'https://commons.wikimedia.org/wiki/File:Hafenrundfahrt_Landungsbr%C3%BCcken_2026.jpg';
  // What an editor may write into a post (the CMS's HTML), each a place the site's styles reach.
  for (const html of [
    `<figure><figcaption>Photo: ${url}</figcaption></figure>`,
    `<blockquote><p>It is about time.</p><cite>${url}</cite></blockquote>`,
    `<h5>${url}</h5>`,
    `<dl><dt>Source</dt><dd>${url}</dd><dt>${url}</dt></dl>`,
  ]) {
    await page.locator('.post .content').evaluate((content, part) => {
      content.insertAdjacentHTML('beforeend', part);
    }, html);
    // Before: the caption, the source and the heading pushed the page some 300 px sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), html).toBe(320);
  }
});

test('an article reads at about 75 characters a line on a wide screen, whatever the tenant’s font', async ({
  page,
}) => {
  await page.setViewportSize({ width: 2560, height: 1440 });
  await page.goto(
    tenantUrl('harbour-times', '/posts/tall-ship-aurora-returns-to-the-old-quay-after-refit'),
  );
  const longestLine = () => longestLineOf(page.locator('.post .content'));
  // The tenant's own font (the system's here), then a serif stack as a tenant may choose.
  // Before: 84 and 105 characters in the 44rem column.
  for (const font of [null, 'Georgia, "Liberation Serif", "Times New Roman", serif']) {
    if (font)
      await page.evaluate((stack) => {
        document.documentElement.style.setProperty('--font-body', stack);
      }, font);
    const longest = await longestLine();
    expect(longest, font ?? 'the tenant’s font').toBeLessThanOrEqual(80);
    expect(longest, font ?? 'the tenant’s font').toBeGreaterThanOrEqual(60);
  }
});

test.describe('upstream trouble', () => {
  const CONTROL = 'http://127.0.0.1:4009';
  test.afterEach(async ({ request }) => {
    await request.delete(`${CONTROL}/faults`);
  });

  test('a cached page is served while the upstream is down; an uncached one gets the branded 503', async ({
    page,
    request,
  }) => {
    const warm = tenantUrl('daily-planet', '/categories/culture');
    await page.goto(warm);
    const heading = await page.getByRole('heading', { level: 1 }).innerText();
    expect(
      (
        await request.post(`${CONTROL}/faults`, { data: { service: 'publishing', down: true } })
      ).ok(),
    ).toBe(true);

    const cached = await page.goto(warm);
    expect(cached?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);

    const cold = await page.goto(tenantUrl('daily-planet', '/search?q=never-cached-query'));
    expect(cold?.status()).toBe(503);
    expect(Number(cold?.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Temporarily unavailable');
    await expect(page.locator('header .brand')).toHaveAccessibleName('Daily Planet');
  });

  test('"Log in" on the 503 page comes back to the page asked for, not to the 503 page', async ({
    page,
    request,
  }) => {
    const asked = `/search?q=${Date.now().toString(36)}-after-sign-in`;
    await request.post(`${CONTROL}/faults`, { data: { service: 'publishing', down: true } });
    expect((await page.goto(tenantUrl('daily-planet', asked)))?.status()).toBe(503);
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(
      tenantUrl('daily-planet', `/login?next=${encodeURIComponent(asked)}`),
    );
    // The API is back by the time the reader has typed their password.
    await request.delete(`${CONTROL}/faults`);
    await page.getByLabel('E-mail address').fill('subscriber@masthead.test');
    await page.getByLabel('Password', { exact: true }).fill('masthead-demo');
    const [landing] = await Promise.all([
      page.waitForResponse((r) => r.url() === tenantUrl('daily-planet', asked)),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(landing.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('after-sign-in');
  });

  test('a 429 from the upstream is never shown as a 500, and is over after its Retry-After', async ({
    page,
    request,
  }) => {
    // After a 429 the budget stays shut for its Retry-After (1 s here), not for a whole minute.
    await request.post(`${CONTROL}/faults`, {
      data: { service: 'publishing', force429: true, retryAfterSeconds: 1 },
    });
    const response = await page.goto(tenantUrl('harbour-times', '/search?q=rate-limited-query'));
    expect(response?.status()).toBe(503);
    // The API's Retry-After, not the minute a 429 used to shut the budget for.
    expect(response?.headers()['retry-after']).toBe('1');
    await expect(page.locator('body')).not.toContainText('Too Many Attempts');
    await request.delete(`${CONTROL}/faults`);
    // Once those seconds are over, the same page answers normally again.
    await expect
      .poll(
        async () =>
          (await page.goto(tenantUrl('harbour-times', '/search?q=rate-limited-query')))?.status(),
        { timeout: 10_000, intervals: [2_000] },
      )
      .toBe(200);
  });
});
