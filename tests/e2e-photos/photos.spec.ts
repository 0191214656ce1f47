import { expect, test, type Page } from '@playwright/test';

// A newsroom's photos on a phone (playwright.photos.config.ts: the mock serves 3000×2000 JPEG covers
// and 2200×3000 page scans): what the phone downloads for a first view, the size each picture
// arrives at, and the picture that paints largest coming first. Budgets are the bytes on the
// wire (issue 21), not times.
const PORT = Number(process.env.E2E_PORT ?? 4900);
const API = process.env.E2E_MOCK_API ?? 'http://127.0.0.1:4910/api/v1';
const MEDIA = new URL(API).origin;
const TENANT = 'daily-planet';
const PAGE_BUDGET = 1.5 * 1024 * 1024;
const THUMBS_BUDGET = 300 * 1024;
const url = (path: string) => `http://${TENANT}.localhost:${PORT}${path}`;

// A phone's own screen: the project's device is a desktop's (1920×1080), and Chromium's preload
// scanner reads `width=device-width` as the screen's width, so it fetched the 2400 px page file no
// phone asks for (`sizes` calc(100vw - 2rem) at 1920 px × 3) beside the 1200 px one shown.
test.use({
  viewport: { width: 390, height: 844 },
  screen: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
});

async function api<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(`${API}${path}`, { headers: { 'X-Tenant': TENANT } });
  return ((await response.json()) as { data: T }).data;
}

/** The reading pages of a first visit, from the mock's own data. */
async function readingPages(page: Page) {
  const posts = await api<{ slug: string; cover_image_url: string | null }[]>(page, '/posts');
  const categories = await api<{ slug: string }[]>(page, '/categories');
  const post = posts.find((p) => p.cover_image_url)!;
  return {
    home: '/',
    post: `/posts/${post.slug}`,
    category: `/categories/${categories[0]!.slug}`,
    'e-paper list': '/epaper',
  };
}

async function freeEdition(page: Page): Promise<{ slug: string; pages: number }> {
  const editions = await api<{ slug: string; is_free: boolean }[]>(page, '/epaper?per_page=50');
  const slug = editions.find((e) => e.is_free)!.slug;
  const edition = await api<{ pages: unknown[] }>(page, `/epaper/${slug}`);
  return { slug, pages: edition.pages.length };
}

/** Loads `path` and counts every byte over the wire (bodies and headers) until the network is idle. */
async function firstView(page: Page, path: string) {
  const loads: { url: string; bytes: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((sizes) => {
        loads.push({
          url: request.url(),
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        });
      }),
    );
  });
  await page.goto(url(path), { waitUntil: 'networkidle' });
  await Promise.all(pending);
  return loads;
}

/** The width an image-route address was made at (`/_img/…/<width>[-<crop>]/<signature>.<ext>`). */
const madeWidth = (src: string) => Number(/\/(\d+)(?:-\w+)?\/[\w-]+\.\w+$/.exec(src)?.[1]);

const sum = (loads: { bytes: number }[]) => loads.reduce((total, load) => total + load.bytes, 0);

test('a phone gets each newsroom photo near the width it shows, never the camera original', async ({
  page,
}) => {
  for (const [name, path] of Object.entries(await readingPages(page))) {
    const loads = await firstView(page, path);
    expect(
      loads.filter((load) => load.url.startsWith(MEDIA)),
      name,
    ).toEqual([]);
    expect(sum(loads), `${name}: bytes of the first view`).toBeLessThanOrEqual(PAGE_BUDGET);
    const shown = await page
      .locator('img[src^="/_img/"]')
      .evaluateAll((images) =>
        (images as HTMLImageElement[])
          .filter((img) => img.complete && img.naturalWidth > 0 && img.clientWidth > 0)
          .map((img) => ({ src: img.currentSrc, needed: img.clientWidth * devicePixelRatio })),
      );
    expect(shown.length, `${name}: pictures shown`).toBeGreaterThan(0);
    for (const picture of shown) {
      // Sharp on a 3× screen (a step of the ladder at or above the need, capped by the layout)…
      expect(madeWidth(picture.src), `${name}: ${picture.src}`).toBeGreaterThanOrEqual(
        Math.min(picture.needed, 1600) * 0.75,
      );
      // …and never the 3000 px original.
      expect(madeWidth(picture.src), `${name}: ${picture.src}`).toBeLessThan(3000);
      expect(picture.src, `${name}: a modern format`).toMatch(/\.(avif|webp)$/);
    }
  }
});

test('the picture that paints largest is the one asked for first', async ({ page }) => {
  const { home, post } = await readingPages(page);
  for (const path of [home, post]) {
    await page.goto(url(path), { waitUntil: 'networkidle' });
    const largest = await page.evaluate(
      () =>
        new Promise<{ tag: string; priority: string | null; loading: string | null } | null>(
          (resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries() as (PerformanceEntry & { element?: Element })[];
              const element = entries.at(-1)?.element;
              resolve(
                element
                  ? {
                      tag: element.tagName,
                      priority: element.getAttribute('fetchpriority'),
                      loading: element.getAttribute('loading'),
                    }
                  : null,
              );
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          },
        ),
    );
    expect(largest, path).toEqual({ tag: 'IMG', priority: 'high', loading: 'eager' });
  }
});

test('a phone opens a full edition for under 1.5 MB, its thumbnail strip under 300 KB', async ({
  page,
}) => {
  const edition = await freeEdition(page);
  expect(edition.pages, 'an edition as long as a newspaper').toBeGreaterThanOrEqual(24);
  const loads = await firstView(page, `/epaper/${edition.slug}`);
  expect(loads.filter((load) => load.url.startsWith(MEDIA))).toEqual([]);
  expect(sum(loads)).toBeLessThanOrEqual(PAGE_BUDGET);
  const thumbnails = await page
    .locator('.thumbs img')
    .evaluateAll((images) => (images as HTMLImageElement[]).map((img) => img.currentSrc));
  expect(thumbnails.filter(Boolean).length, 'thumbnails loaded').toBeGreaterThan(0);
  const thumbBytes = sum(loads.filter((load) => thumbnails.includes(load.url)));
  expect(thumbBytes).toBeLessThanOrEqual(THUMBS_BUDGET);

  // The page shown is sharp for the screen, in AVIF, and far smaller than the 2200×3000 scan.
  const image = page.locator('img[data-page-image]');
  const shown = await image.evaluate((img) => ({
    src: (img as HTMLImageElement).currentSrc,
    needed: (img as HTMLImageElement).clientWidth * devicePixelRatio,
  }));
  expect(shown.src).toMatch(/\.avif$/);
  expect(madeWidth(shown.src)).toBeGreaterThanOrEqual(Math.min(shown.needed, 1600) * 0.75);
  expect(madeWidth(shown.src)).toBeLessThan(2200);
  // …and the only file of that page it downloads: no wider one fetched ahead of the layout (the
  // preload scanner reads `sizes` before the page is laid out) for bytes nobody sees.
  const source = /\/_img\/u\/([\w-]+)\//.exec(shown.src)?.[1] ?? '';
  const files = loads.filter(
    (load) => load.url.includes(`/${source}/`) && /\.avif$/.test(load.url),
  );
  expect(files.map((load) => madeWidth(load.url))).toEqual([madeWidth(shown.src)]);
});

test.describe('a 2× desktop with a 24 px default font', () => {
  test.use({
    viewport: { width: 1280, height: 800 },
    screen: { width: 1280, height: 800 },
    deviceScaleFactor: 2,
    isMobile: false,
  });

  test("a post's cover arrives as sharp as it is shown", async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 20 } });
    const { post } = await readingPages(page);
    await page.goto(url(post), { waitUntil: 'networkidle' });
    const cover = await page
      .locator('img.cover')
      .evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, shown: img.clientWidth }));
    // 44rem at 24 px; before: the 1600 px file (the ladder's top for 704 px) for 2112 device pixels.
    expect(cover.shown).toBe(1056);
    expect(madeWidth(cover.src)).toBeGreaterThanOrEqual(cover.shown * 2);
  });
});
