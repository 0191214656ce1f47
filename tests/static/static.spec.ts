import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LinkChecker, LinkState } from 'linkinator';
import { PUBLIC_LIMIT, TENANT } from './global-setup.ts';
import { describeErrors, vnuErrors } from '../vnu.ts';
import { describeXsd, sitemapMessages } from '../xsd.ts';

interface Facts {
  base: string;
  dir: string;
  offlineDir: string;
  publishingUrl: string;
  controlUrl: string;
  firstOutput: string;
  secondOutput: string;
  afterFirst: { total: number; routes: Record<string, number> };
  afterSecond: { total: number; routes: Record<string, number> };
}

const facts = JSON.parse(readFileSync(process.env['STATIC_FACTS'] ?? '', 'utf8')) as Facts;
const url = (path: string) => `${facts.base}${path}`;

function outputFiles(dir = facts.dir): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Fails on console errors and uncaught exceptions of the page (frames included). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function checkA11y(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
  expect(serious, serious.join('\n')).toEqual([]);
}

test('the build waited for the lowered limit instead of being refused, each call answered once', () => {
  const calls = Number(/upstream: (\d+) calls/.exec(facts.firstOutput)?.[1]);
  // More calls than one window allows: the build had to wait, and the mock saw exactly its calls.
  expect(calls).toBeGreaterThan(PUBLIC_LIMIT);
  expect(facts.afterFirst.total).toBe(calls);
  const posts = readdirSync(join(facts.dir, 'posts')).length;
  // A 429 would have been retried: no detail or comment list was asked twice.
  expect(facts.afterFirst.routes['GET /posts/{slug}']).toBe(posts);
  expect(facts.afterFirst.routes['GET /posts/{slug}/comments']).toBe(posts);
  expect(facts.afterFirst.routes['GET /posts']).toBe(1);
  expect(facts.firstOutput).toMatch(/[1-9]\d* s waiting for the budget/);
});

test('a second build within the freshness window asks the upstream nothing', () => {
  expect(facts.afterSecond.total).toBe(facts.afterFirst.total);
  expect(facts.secondOutput).toMatch(/upstream: 0 calls, \d+ answers reused/);
});

test('no token, password or subscriber page image is in any file; no link needs a server', async () => {
  const demo = JSON.parse(readFileSync('mock/demo-accounts.json', 'utf8')) as {
    password: string;
    lodging: Record<string, { password: string; readToken: string; fullToken: string }>;
  };
  // The build's limits are checked above; the test's own calls need no limit.
  await fetch(`${facts.controlUrl}/limits`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ publicPerMinute: 0 }),
  });
  // The subscriber's own view of the subscriber-only editions: the page images a copy must never name.
  const headers = { 'X-Tenant': TENANT, Accept: 'application/json' };
  const login = await fetch(`${facts.publishingUrl}/auth/login`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'subscriber@masthead.test', password: demo.password }),
  });
  expect(login.status).toBe(200);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const auth = { ...headers, Authorization: `Bearer ${token}` };
  const list = (await (
    await fetch(`${facts.publishingUrl}/epaper?per_page=50`, { headers: auth })
  ).json()) as {
    data: { slug: string; is_free: boolean }[];
  };
  const paid = list.data.filter((edition) => !edition.is_free);
  expect(paid.length).toBeGreaterThan(0);
  const pageImages: string[] = [];
  for (const edition of paid) {
    const detail = (await (
      await fetch(`${facts.publishingUrl}/epaper/${edition.slug}`, { headers: auth })
    ).json()) as { data: { pages: { image_url: string }[] } };
    pageImages.push(...detail.data.pages.map((page) => page.image_url));
  }
  expect(pageImages.length).toBeGreaterThan(0);
  const secrets = [
    token,
    demo.password,
    ...Object.values(demo.lodging).flatMap((a) => [a.password, a.readToken, a.fullToken]),
  ];
  const forbidden = [...secrets, ...pageImages, ...pageImages.map((src) => new URL(src).pathname)];
  const found: string[] = [];
  for (const file of [...outputFiles(), ...outputFiles(facts.offlineDir)]) {
    const text = readFileSync(file, 'utf8');
    for (const needle of forbidden) if (text.includes(needle)) found.push(`${file}: ${needle}`);
    if (/href="\/(?:login|register|account|logout)\b/.test(text))
      found.push(`${file}: server link`);
    if (/<form[^>]*method="post"/i.test(text))
      found.push(`${file}: a form that posts into nothing`);
  }
  expect(found).toEqual([]);
});

test('a link checker finds no broken internal link or image', async () => {
  test.setTimeout(120_000);
  const checker = new LinkChecker();
  const result = await checker.check({
    path: url('/'),
    recurse: true,
    concurrency: 8,
    linksToSkip: (link: string) => Promise.resolve(!link.startsWith(facts.base)),
  });
  const broken = result.links
    .filter((link) => link.state === LinkState.BROKEN)
    .map((link) => `${link.url} (${link.status ?? '?'}) from ${link.parent ?? '?'}`);
  expect(broken).toEqual([]);
  expect(result.links.length).toBeGreaterThan(100);
});

test('a hostile subscribe link from the API never reaches the copy', () => {
  // alpine-post was built while the API answered every subscribe_url with `javascript:…`.
  const plans = readFileSync(join(facts.offlineDir, 'plans', 'index.html'), 'utf8');
  expect(plans).toContain('Annual All Access');
  for (const file of outputFiles(facts.offlineDir)) {
    if (/\.(html|xml)$/.test(file))
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/href="\s*javascript:/i);
  }
});

test('the copy carries the live CSP: a javascript: link does not run when clicked', async ({
  page,
}) => {
  await page.goto(url('/plans'));
  const policy = page.locator('meta[http-equiv="content-security-policy"]');
  await expect(policy).toHaveAttribute('content', /script-src 'self'/);
  // As a copy built before the scheme check held it: a subscribe button with the hostile address.
  const subscribe = page.locator('article.plan a.button').first();
  await subscribe.evaluate((link) =>
    link.setAttribute('href', "javascript:document.title='hostile link ran'"),
  );
  await subscribe.click({ noWaitAfter: true });
  await page.waitForTimeout(300);
  // Before: no policy at all in the copy, and the click ran the script.
  expect(await page.title()).not.toBe('hostile link ran');
  const headers = readFileSync(join(facts.dir, '_headers'), 'utf8');
  expect(headers).toMatch(
    /^\/plans\n {2}content-security-policy: object-src 'none'; ?base-uri 'self'; ?script-src 'self'/m,
  );
});

test('reading pages ship no JavaScript', async ({ page }) => {
  for (const path of ['/', '/page/2', '/categories', '/tags', '/plans']) {
    await page.goto(url(path));
    await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
  }
});

test('home → post → category → tag → page 2 → search → plans → e-paper → stream, from plain files', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);

  await page.goto(url('/'));
  await expect(page.getByRole('link', { name: 'Account' })).toHaveCount(0);
  await checkA11y(page);
  const firstPost = page.locator('article.card .title a').first();
  const title = (await firstPost.innerText()).trim();
  await firstPost.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const join = page.getByRole('link', { name: 'Join the discussion' });
  await expect(join).toHaveAttribute(
    'href',
    new URL(`${new URL(page.url()).pathname}#comments`, 'http://harbour-times.localhost:4321').href,
  );
  await checkA11y(page);
  const postUrl = page.url();

  await page.locator('article.post a.section-label').click();
  await expect(page).toHaveURL(/\/categories\/[^/]+$/);
  await checkA11y(page);

  await page.goto(postUrl);
  const tag = page.locator('article.post .tags a, article.post a[href^="/tags/"]').first();
  if ((await tag.count()) > 0) {
    await tag.click();
    await expect(page).toHaveURL(/\/tags\/[^/]+$/);
    await checkA11y(page);
  }

  await page.goto(url('/'));
  await page.getByRole('link', { name: 'Older →' }).click();
  await expect(page).toHaveURL(/\/page\/2$/);
  await expect(page.locator('article.card')).not.toHaveCount(0);
  await checkA11y(page);

  // Search runs on Pagefind's static index in the browser.
  await page.getByRole('link', { name: 'Search' }).click();
  const box = page.locator('#static-search input');
  await box.fill(title.split(' ').slice(0, 3).join(' '));
  const hit = page.locator('#static-search .pagefind-ui__result-link').first();
  await expect(hit).toBeVisible();
  await checkA11y(page);
  await hit.click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await page.getByRole('contentinfo').getByRole('link', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/plans$/);
  await checkA11y(page);

  await page.getByRole('link', { name: 'E-paper' }).first().click();
  await checkA11y(page);
  const free = page.locator('article').filter({ hasText: /free/i }).getByRole('link').last();
  await free.click();
  await expect(page.locator('[data-page-image]')).toBeVisible();
  await page
    .getByRole('link', { name: /Next page/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/page\/2$/);
  await checkA11y(page);
  // No server here turns the form's `?page=5` into the page's path (a static host shows page 1).
  await page.getByLabel('Go to page').fill('5');
  await page.getByLabel('Go to page').press('Enter');
  await expect(page).toHaveURL(/\/page\/5$/);
  await expect(page.locator('[data-page-image]')).toHaveAttribute('alt', /^Page 5 of /);

  await page.getByRole('link', { name: 'Live' }).click();
  await checkA11y(page);
  await page.locator('.stream-card .title a').first().click();
  await expect(page.locator('article.stream .badge')).toHaveText(/Live|Scheduled|Ended/);
  await expect(page.locator('iframe')).toBeVisible();
  await checkA11y(page);

  expect(errors).toEqual([]);
});

test('a branded 404.html is there for static hosts to pick up', async ({ page }) => {
  const response = await page.goto(url('/404.html'));
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found/i);
  await expect(page.locator('.site-header .brand')).toHaveAccessibleName('Harbour Times');
  await checkA11y(page);
});

test('booking comes from the live server’s embed, and is left out without one', () => {
  const stay = readFileSync(join(facts.dir, 'stay', 'index.html'), 'utf8');
  expect(stay).toContain('src="http://harbour-times.localhost:4321/embed/booking.js"');
  expect(stay).toMatch(/data-property="[0-9a-f-]{36}"/);
  // Its policy (carried in the page) lets the live server's loader run.
  expect(stay).toMatch(
    /<meta http-equiv="content-security-policy" content="object-src 'none'; ?base-uri 'self'; ?script-src 'self' http:\/\/harbour-times\.localhost:4321[; ]/,
  );

  const home = readFileSync(join(facts.offlineDir, 'index.html'), 'utf8');
  expect(home).not.toMatch(/href="\/stay"/);
  expect(readdirSync(facts.offlineDir)).not.toContain('stay');
  const post = readdirSync(join(facts.offlineDir, 'posts'))[0] ?? '';
  const page = readFileSync(join(facts.offlineDir, 'posts', post, 'index.html'), 'utf8');
  // In the tenant's language (this copy is Alpine Post's, in German), with no link to a live site.
  expect(page).toContain('Auf dieser Kopie der Website sind die Kommentare geschlossen.');
  expect(page).not.toContain('Comments are closed');
  expect(page).not.toContain('Diskutieren Sie auf unserer Website mit');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('search says what to do instead, and no stream claims to be live', async ({ page }) => {
    await page.goto(url('/search'));
    await expect(page.getByText(/Search in this copy of the site needs JavaScript/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'categories' })).toHaveAttribute(
      'href',
      '/categories',
    );
    await page.goto(url('/streams'));
    const badges = await page.locator('.stream-card .badge').allInnerTexts();
    expect(badges.length).toBeGreaterThan(0);
    expect(badges.map((text) => text.trim().toLowerCase())).not.toContain('live');
    // Built while streams were on air (their cards started), its front page, read days later, names
    // none as live now or starting today.
    expect(await page.locator('.stream-card .badge.started').count()).toBeGreaterThan(0);
    await page.goto(url('/'));
    await expect(page.locator('main')).toContainText('Featured');
    await expect(page.getByRole('heading', { name: /Live now|Live today/i })).toHaveCount(0);
  });

  test('the e-paper reader offers no go-to form that would show the wrong page', async ({
    page,
  }) => {
    await page.goto(url('/epaper'));
    await page.locator('article').filter({ hasText: /free/i }).getByRole('link').last().click();
    await page
      .getByRole('link', { name: /Next page/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/page\/2#reader-pages$/);
    // Its `?page=5` reaches no server here: a plain file host answers with the edition's cover.
    await expect(page.getByLabel('Go to page')).toBeHidden();
    // The page strip still goes to the pages around this one, as plain links.
    await page.getByRole('link', { name: 'Page 4', exact: true }).click();
    await expect(page).toHaveURL(/\/page\/4#reader-pages$/);
    await expect(page.locator('[data-page-image]')).toHaveAttribute('alt', /^Page 4 of /);
  });
});

test('canonical URLs, feed, sitemap and robots.txt name the copy’s origin, never the build server', () => {
  const origin = 'https://harbour-times.localhost';
  const read = (file: string) => readFileSync(join(facts.dir, file), 'utf8');
  expect(read('index.html')).toContain(`<link rel="canonical" href="${origin}/">`);
  expect(read('page/2/index.html')).toContain(`<link rel="canonical" href="${origin}/page/2/">`);
  expect(read('robots.txt')).toContain(`Sitemap: ${origin}/sitemap.xml`);
  expect(read('rss.xml')).toContain(`<link>${origin}/posts/`);
  expect(read('sitemap.xml')).toContain(`<loc>${origin}/sitemap-posts-1.xml</loc>`);
  expect(read('sitemap.xml')).toContain(`<loc>${origin}/news-sitemap.xml</loc>`);
  expect(read('news-sitemap.xml')).toContain(
    'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"',
  );
  for (const file of outputFiles()) {
    if (/\.(html|xml|txt)$/.test(file))
      expect(readFileSync(file, 'utf8'), file).not.toMatch(
        /127\.0\.0\.1:\d+\/(?!media|player|subscribe|reader)/,
      );
  }
});

test('no page hot-links an upstream picture: every image is a file of the copy', () => {
  const files = outputFiles();
  const present = new Set(files);
  const found: string[] = [];
  for (const file of files.filter((name) => name.endsWith('.html'))) {
    const text = readFileSync(file, 'utf8');
    if (/<img[^>]+src="https?:\/\/127\.0\.0\.1:\d+\/media\//.test(text)) found.push(file);
    for (const [path] of text.matchAll(/\/_img\/[\w/-]+\.(?:avif|webp|jpg)/g)) {
      if (!present.has(join(facts.dir, path))) found.push(`${file}: ${path} missing`);
    }
  }
  expect(found.slice(0, 5)).toEqual([]);
  expect(files.some((name) => name.endsWith('.avif'))).toBe(true);
});

test('the copy holds exactly the derived pictures its pages name, made while the build fetched', () => {
  const named = new Set<string>();
  const pictures: string[] = [];
  for (const file of outputFiles()) {
    if (file.includes(`${facts.dir}/_img/`)) pictures.push(file.slice(facts.dir.length));
    else if (/\.(html|xml)$/.test(file)) {
      for (const [path] of readFileSync(file, 'utf8').matchAll(
        /\/_img\/[\w/-]+\.(?:avif|webp|jpg)/g,
      ))
        named.add(path);
    }
  }
  expect(named.size).toBeGreaterThan(20);
  expect(pictures.filter((path) => !named.has(path))).toEqual([]);
  expect([...named].filter((path) => !pictures.includes(path))).toEqual([]);
  const [, written, reused, made, early, blank] = (
    /pictures: (\d+) \((\d+) from the image cache, (\d+) made, (\d+) of them while fetching; (\d+) blank/.exec(
      facts.firstOutput,
    ) ?? []
  ).map(Number);
  expect(written).toBe(named.size);
  expect((reused ?? 0) + (made ?? 0) + (blank ?? 0)).toBeGreaterThanOrEqual(named.size);
  // The lowered limit made the build wait for a window: pictures of the posts already in were
  // made in that wait.
  expect(early).toBeGreaterThan(0);
});

test('pages rendered while the build waited for the upstream are taken into the copy', () => {
  const [, rendered, taken] = (
    /early: (\d+) pages rendered while fetching, (\d+) of them taken into the copy/.exec(
      facts.firstOutput,
    ) ?? []
  ).map(Number);
  expect(rendered).toBeGreaterThan(0);
  expect(taken).toBeGreaterThan(0);
});

test('a second build makes no picture: each comes from the image cache the first one filled', () => {
  const [, written, reused, made, blank] = (
    /pictures: (\d+) \((\d+) from the image cache, (\d+) made, \d+ of them while fetching; (\d+) blank/.exec(
      facts.secondOutput,
    ) ?? []
  ).map(Number);
  expect(written).toBeGreaterThan(20);
  // Every picture but the stand-ins of the mock's broken source (nothing to keep) was linked.
  expect((reused ?? 0) + (blank ?? 0)).toBeGreaterThanOrEqual(written ?? Infinity);
  expect(made).toBe(0);
});

test('every page of the copy is valid HTML to the Nu checker (one run over the folder)', async () => {
  test.setTimeout(180_000);
  expect(describeErrors(await vnuErrors(facts.dir))).toEqual([]);
});

test('the copy’s sitemap index, sitemaps and news sitemap validate against the schemas', async () => {
  const sitemaps = outputFiles()
    .filter((file) => /(?:^|\/)(?:news-)?sitemap[\w-]*\.xml$/.test(file))
    .map((path) => ({ path, body: readFileSync(path, 'utf8') }));
  const names = sitemaps.map((file) => file.path.slice(facts.dir.length + 1)).sort();
  expect(names).toEqual(
    expect.arrayContaining([
      'news-sitemap.xml',
      'sitemap-pages.xml',
      'sitemap-posts-1.xml',
      'sitemap.xml',
    ]),
  );
  expect(describeXsd(await sitemapMessages(sitemaps))).toEqual([]);
});
