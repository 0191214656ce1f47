import { createHmac } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { tenantUrl } from './helpers.ts';
import { DEMO_TENANTS, pageTypes } from './page-types.ts';

// The e2e server signs with this key (playwright.config.ts), so a test can forge what an attacker
// with a leaked key could: a signed address for a host the tenant does not take pictures from.
const SECRET = process.env.E2E_IMAGE_SECRET ?? 'e2e-image-signing-secret';
const MOCK_MEDIA = /https?:\/\/127\.0\.0\.1:4010\/media\//;
const TENANT = 'daily-planet';

function signed(source: string, width: number, format: 'avif' | 'webp' | 'jpeg'): string {
  const signature = createHmac('sha256', SECRET)
    .update(`u\n${source}\n${width}\n${format}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
  const extension = format === 'jpeg' ? 'jpg' : format;
  return `/_img/u/${Buffer.from(source).toString('base64url')}/${width}/${signature}.${extension}`;
}

/** The first free (or subscriber-only) edition of the mock. */
async function editionOf(request: APIRequestContext, free: boolean): Promise<{ slug: string }> {
  const list = await request.get('http://127.0.0.1:4010/api/v1/epaper?per_page=50', {
    headers: { 'X-Tenant': TENANT },
  });
  const editions = ((await list.json()) as { data: { slug: string; is_free: boolean }[] }).data;
  return editions.find((e) => e.is_free === free)!;
}

/** GET from inside the page (Node cannot resolve `*.localhost`; the browser sends its cookies). */
async function browserGet(page: Page, url: string) {
  return page.evaluate(async (target) => {
    const response = await fetch(target);
    const text = response.headers.get('content-type')?.startsWith('text/')
      ? await response.text()
      : '';
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      cache: response.headers.get('cache-control'),
      reason: response.headers.get('x-image-error'),
      text,
    };
  }, url);
}

test('no page type names an upstream media URL; every picture has srcset, sizes, width and height', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tenant = DEMO_TENANTS.find((t) => t.id === TENANT)!;
  for (const type of await pageTypes(tenant)) {
    const response = await page.goto(tenantUrl(TENANT, type.path));
    const html = (await response?.text()) ?? '';
    expect(html, type.name).not.toMatch(MOCK_MEDIA);
    const pictures = await page.locator('img[src^="/_img/"]').evaluateAll((imgs) =>
      imgs.map((img) => ({
        srcset: img.getAttribute('srcset') ?? img.previousElementSibling?.getAttribute('srcset'),
        sizes: img.getAttribute('sizes') ?? img.previousElementSibling?.getAttribute('sizes'),
        width: Number(img.getAttribute('width')),
        height: Number(img.getAttribute('height')),
      })),
    );
    for (const picture of pictures) {
      expect(picture.srcset, type.name).toMatch(/ \d+w/);
      expect(picture.sizes, type.name).toBeTruthy();
      expect(picture.width, type.name).toBeGreaterThan(0);
      expect(picture.height, type.name).toBeGreaterThan(0);
    }
    // The only images on a reading page are the site's own (logo) or the image route's.
    const others = await page
      .locator('img')
      .evaluateAll((imgs) =>
        imgs.map((img) => img.getAttribute('src') ?? '').filter((src) => /^https?:/.test(src)),
      );
    expect(others, type.name).toEqual([]);
  }
});

test('the largest picture loads first, the rest wait; each loads as a modern format', async ({
  page,
}) => {
  await page.goto(tenantUrl(TENANT, '/'));
  const images = page.locator('main img[src^="/_img/"]');
  await expect(images.first()).toHaveAttribute('fetchpriority', 'high');
  await expect(images.first()).toHaveAttribute('loading', 'eager');
  await expect(images.nth(1)).toHaveAttribute('loading', 'lazy');
  const current = await images.first().evaluate((img) => (img as HTMLImageElement).currentSrc);
  expect(current).toMatch(/\.avif$/);
  const response = await browserGet(page, current);
  expect(response).toMatchObject({
    status: 200,
    type: 'image/avif',
    cache: 'public, max-age=31536000, immutable',
  });
});

test('articles allow large image previews and describe their picture in three shapes', async ({
  page,
  request,
}) => {
  const posts = await request.get('http://127.0.0.1:4010/api/v1/posts?per_page=10', {
    headers: { 'X-Tenant': TENANT },
  });
  const post = (
    (await posts.json()) as { data: { slug: string; cover_image_url: string | null }[] }
  ).data.find((p) => p.cover_image_url)!;
  await page.goto(tenantUrl(TENANT, `/posts/${post.slug}`));
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute(
    'content',
    'max-image-preview:large',
  );
  const og = await page.locator('meta[property="og:image"]').getAttribute('content');
  expect(og).toMatch(/\/_img\/u\/[\w-]+\/1200\/[\w-]+\.jpg$/);
  const ld = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent ?? '{}') as unknown));
  const article = ld.find((x) => (x as { '@type'?: string })['@type'] === 'NewsArticle') as {
    image: string[];
  };
  expect(article.image.map((url) => /\/1200-(\w+)\//.exec(url)?.[1])).toEqual([
    '16x9',
    '4x3',
    '1x1',
  ]);
  expect((await browserGet(page, article.image[2]!)).status).toBe(200);
});

test.describe('the image route refuses what the site did not sign', () => {
  const cover = 'http://127.0.0.1:4010/media/daily-planet/covers/nothing-here.jpg';

  test('a tampered signature, an unknown width or a foreign host: a clear status, never a 500', async ({
    page,
  }) => {
    await page.goto(tenantUrl(TENANT, '/robots.txt'));
    const good = signed(cover, 480, 'avif');
    const cases: [string, number, RegExp][] = [
      [good.replace(/\/[\w-]{22}\./, '/AAAAAAAAAAAAAAAAAAAAAA.'), 403, /not signed/],
      [good.replace('/480/', '/481/'), 400, /width/],
      [signed('https://evil.example/cat.jpg', 480, 'avif'), 403, /not on a host/],
      [signed('http://169.254.169.254/latest/meta-data', 480, 'jpeg'), 403, /not on a host/],
    ];
    for (const [path, status, reason] of cases) {
      const response = await browserGet(page, path);
      expect(response.status, path).toBe(status);
      expect(response.reason, path).toMatch(reason);
      expect(response.text).not.toMatch(/at .*\.(ts|js|mjs):\d+/);
    }
  });

  test('a missing source answers 404 with a blank picture, so the layout shows its fallback', async ({
    page,
  }) => {
    await page.goto(tenantUrl(TENANT, '/robots.txt'));
    const response = await browserGet(page, signed(cover, 480, 'avif'));
    expect(response).toMatchObject({ status: 404, type: 'image/gif', cache: 'no-store' });
    // The browser draws it (no broken-image icon): a transparent strip one pixel high.
    const drawn = await page.evaluate(
      async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode().catch(() => undefined);
        return { width: img.naturalWidth, height: img.naturalHeight };
      },
      signed(cover, 480, 'avif'),
    );
    expect(drawn).toEqual({ width: 1000, height: 1 });
  });
});

test.describe('a picture in an article that cannot be made', () => {
  const API = 'http://127.0.0.1:4010/api/v1';
  const headers = { 'X-Tenant': TENANT, Accept: 'application/json' };
  const token = async (request: APIRequestContext, email: string) => {
    const login = await request.post(`${API}/auth/login`, {
      headers,
      data: { email, password: 'masthead-demo' },
    });
    expect(login.ok()).toBe(true);
    return ((await login.json()) as { data: { token: string } }).data.token;
  };
  let post: { id: number; slug: string } | undefined;

  test.afterAll(async ({ request }) => {
    if (!post) return;
    const admin = await token(request, 'admin@masthead.test');
    await request.delete(`${API}/posts/${post.id}`, {
      headers: { ...headers, Authorization: `Bearer ${admin}` },
    });
  });

  test('collapses to its alt text: no blank gap, the working picture beside it unchanged', async ({
    browser,
    request,
  }) => {
    const editor = await token(request, 'editor@masthead.test');
    const figure = (src: string, alt: string) =>
      `<figure><img src="${src}" alt="${alt}" width="1200" height="800"><figcaption>${alt}.</figcaption></figure>`;
    const created = await request.post(`${API}/posts`, {
      headers: { ...headers, Authorization: `Bearer ${editor}` },
      data: {
        title: `A broken picture ${Date.now()}`,
        status: 'published',
        content: [
          '<p>Before the picture.</p>',
          figure('http://127.0.0.1:4010/media/daily-planet/covers/nothing-here.jpg', 'The pier'),
          '<p>After the picture.</p>',
          figure('http://127.0.0.1:4010/media/daily-planet/figures/harbour-1.svg', 'The harbour'),
        ].join(''),
      },
    });
    expect(created.status()).toBe(201);
    post = ((await created.json()) as { data: { id: number; slug: string } }).data;

    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(tenantUrl(TENANT, `/posts/${post.slug}`));
      const [broken, working] = [
        page.locator('.content picture[data-alt="The pier"]'),
        page.locator('.content picture[data-alt="The harbour"]'),
      ];
      for (const picture of [broken, working]) {
        await picture.scrollIntoViewIfNeeded();
        await expect
          .poll(() => picture.locator('img').evaluate((img: HTMLImageElement) => img.complete))
          .toBe(true);
      }
      // The failed one is as high as its alt text (shown in its place), not a column-wide gap.
      const brokenBox = (await broken.boundingBox())!;
      expect(brokenBox.height).toBeLessThan(80);
      expect(await broken.evaluate((node) => getComputedStyle(node, '::before').content)).toContain(
        'The pier',
      );
      const workingImg = (await working.locator('img').boundingBox())!;
      expect(workingImg.height).toBeGreaterThan(workingImg.width / 2);
      await context.close();
    }
  });
});

test('a subscriber page image needs the session on every request, and is never stored', async ({
  page,
  browser,
  request,
}) => {
  const paid = await editionOf(request, false);
  await page.goto(tenantUrl(TENANT, `/login?next=${encodeURIComponent(`/epaper/${paid.slug}`)}`));
  await page.getByLabel('E-mail address').fill('subscriber@masthead.test');
  await page.getByLabel('Password').fill('masthead-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  const image = page.locator('img[data-page-image]');
  await expect(image).toHaveAttribute('src', new RegExp(`^/_img/e/${paid.slug}/1/`));
  await expect
    .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(1);
  const src = new URL((await image.getAttribute('src'))!, page.url()).toString();

  expect(await browserGet(page, src)).toMatchObject({ status: 200, cache: 'private, no-store' });

  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    await other.goto(tenantUrl(TENANT, '/robots.txt'));
    expect(await browserGet(other, src)).toMatchObject({ status: 401, cache: 'no-store' });
  } finally {
    await stranger.close();
  }
});

test('the reader shows its pages in AVIF, turned in place, and fetches the next page ahead', async ({
  page,
  request,
}) => {
  const free = await editionOf(request, true);
  /** The upstream page number and format of an image-route address. */
  const pageOf = (url: string) => {
    // Chromium's currentSrc is empty while a new picture loads.
    if (!url) return 'loading';
    const match = /\/_img\/u\/([\w-]+)\/\d+\/[\w-]+\.(\w+)$/.exec(new URL(url).pathname);
    const source = Buffer.from(match?.[1] ?? '', 'base64url').toString();
    return `${/\/pages\/(\d+)\./.exec(source)?.[1]}.${match?.[2]}`;
  };
  const loaded: string[] = [];
  page.on('requestfinished', (r) => {
    if (r.url().includes('/_img/u/')) loaded.push(pageOf(r.url()));
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(tenantUrl(TENANT, `/epaper/${free.slug}`));
  const image = page.locator('img[data-page-image]');
  const shown = () => image.evaluate((img) => (img as HTMLImageElement).currentSrc);
  await expect.poll(async () => pageOf(await shown())).toBe('1.avif');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => pageOf(await shown())).toBe('2.avif');
  await expect.poll(() => loaded).toContain('3.avif');
  // Thumbnails stay WebP (AVIF saves nothing at 160 px); no page ever loads as JPEG.
  expect(loaded.filter((entry) => entry.endsWith('.jpg'))).toEqual([]);
});
