import { expect, test } from '@playwright/test';
import { checkA11y, tenantUrl } from './helpers.ts';
import { DEMO_TENANTS, pageTypes } from './page-types.ts';

// Every page type through axe beyond the light 1280 px screen the other specs use: a phone in dark
// mode and a 2560 px screen, both asking for reduced motion.
const planet = DEMO_TENANTS.find((tenant) => tenant.id === 'daily-planet')!;

for (const { width, height, colorScheme } of [
  { width: 390, height: 844, colorScheme: 'dark' },
  { width: 2560, height: 1440, colorScheme: 'light' },
] as const) {
  test.describe(`${width} px, ${colorScheme}`, () => {
    test.use({ viewport: { width, height }, colorScheme, reducedMotion: 'reduce' });

    // Some twenty pages, each through axe (5 to 10 s each on a loaded 2-core machine at 2560 px):
    // in four tests, so each has its own time.
    for (const part of [1, 2, 3, 4]) {
      test(`axe finds nothing serious on any page type (part ${part} of 4)`, async ({ page }) => {
        test.slow();
        const types = (await pageTypes(planet)).filter((_, index) => index % 4 === part - 1);
        for (const type of types) {
          await test.step(type.name, async () => {
            await page.goto(tenantUrl(planet.id, type.path));
            await checkA11y(page);
          });
        }
      });
    }
  });
}

test.describe('2560 px', () => {
  test.use({ viewport: { width: 2560, height: 1440 } });

  test("a post's lines stay short enough to read", async ({ page }) => {
    const post = (await pageTypes(planet)).find((type) => type.name === 'post')!;
    await page.goto(tenantUrl(planet.id, post.path));
    const paragraph = page.locator('.content p').first();
    const { width, font } = await paragraph.evaluate((p) => ({
      width: p.getBoundingClientRect().width,
      font: parseFloat(getComputedStyle(p).fontSize),
    }));
    // About 0.5 em a character: at most some 90 characters a line.
    expect(width / (font * 0.5)).toBeLessThanOrEqual(90);
  });
});

test.describe('390 px, a 24 px default font', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("every paper's logo stays as tall as the reader's text", async ({ page }) => {
    // Before: the search, Subscribe and menu buttons grew with the text and squeezed the logo to 9–30 px wide.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 20 } });
    for (const tenant of DEMO_TENANTS) {
      await page.goto(tenantUrl(tenant.id, '/'));
      const logo = (await page.locator('.site-header .brand img').boundingBox())!;
      expect(logo.height, tenant.id).toBeGreaterThanOrEqual(24);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), tenant.id).toBe(390);
    }
  });
});

test.describe('320 px', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("every paper's name in its logo stays readable beside Search, Subscribe and the menu", async ({
    page,
  }) => {
    // Before: the three controls squeezed a 5:1 logo to 80 × 16 px, its lettering some 8 px tall.
    for (const tenant of DEMO_TENANTS) {
      await page.goto(tenantUrl(tenant.id, '/'));
      const logo = (await page.locator('.site-header .brand img').boundingBox())!;
      expect(logo.height, tenant.id).toBeGreaterThanOrEqual(24);
      await expect(page.locator('.site-header .subscribe')).toBeInViewport();
      await expect(page.locator('.site-header summary')).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), tenant.id).toBe(320);
    }
  });
});

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} mode`, () => {
    test.use({ colorScheme });

    test("every tenant's keyboard focus ring stands out from the page (3:1)", async ({ page }) => {
      for (const tenant of DEMO_TENANTS) {
        await page.goto(tenantUrl(tenant.id, '/login'));
        await page.locator('main input:not([type="hidden"])').first().focus();
        const { ring, background, visible } = await page.evaluate(() => {
          const field = document.activeElement!;
          return {
            ring: getComputedStyle(field).outlineColor,
            background: getComputedStyle(document.body).backgroundColor,
            visible: field.matches(':focus-visible'),
          };
        });
        expect(visible, tenant.id).toBe(true);
        expect(
          contrast(ring, background),
          `${tenant.id}: ${ring} on ${background}`,
        ).toBeGreaterThanOrEqual(3);
      }
    });

    test('a refused field and the list of problems are outlined to stand out (3:1)', async ({
      page,
    }) => {
      // Before, in dark mode: a fixed dark red, 2.8:1 on the dark page, the faintest box on it.
      await page.goto(tenantUrl(planet.id, '/posts/welcome-to-our-new-website'));
      const form = page.locator('#comment-form');
      await form.getByLabel('Comment', { exact: true }).fill('A comment without an e-mail.');
      await form.getByLabel('Name', { exact: true }).fill('Nora Nomail');
      await form.getByRole('button', { name: 'Post comment' }).click();
      const email = form.getByLabel('E-mail', { exact: true });
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      for (const [what, border] of [
        ['field', await email.evaluate((field) => getComputedStyle(field).borderTopColor)],
        [
          'summary',
          await form
            .locator('.error-summary')
            .evaluate((box) => getComputedStyle(box).borderTopColor),
        ],
      ] as const) {
        expect(
          contrast(border, background),
          `${what}: ${border} on ${background}`,
        ).toBeGreaterThanOrEqual(3);
      }
    });
  });
}

test("the booking calendar's focused day stands out, picked or not (3:1)", async ({ page }) => {
  const harbour = DEMO_TENANTS.find((tenant) => tenant.id === 'harbour-times')!;
  await page.goto(tenantUrl(harbour.id, `/stay?property=${harbour.lodging!.propertyIds[0]}`));
  await expect(page.locator('masthead-booking[data-ready="true"]')).toBeAttached();
  const day = page.locator('.calendar td[data-day]:not([aria-disabled="true"])').nth(3);
  const ringOn = () =>
    day.evaluate((cell) => {
      const style = getComputedStyle(cell);
      const own = style.backgroundColor;
      const background =
        own === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.body).backgroundColor : own;
      return { ring: style.outlineColor, background, visible: cell.matches(':focus-visible') };
    });
  await day.focus();
  let seen = await ringOn();
  expect(seen.visible).toBe(true);
  expect(contrast(seen.ring, seen.background), JSON.stringify(seen)).toBeGreaterThanOrEqual(3);
  await page.keyboard.press('Enter');
  await expect(day).toHaveAttribute('aria-selected', 'true');
  await day.focus();
  seen = await ringOn();
  expect(contrast(seen.ring, seen.background), JSON.stringify(seen)).toBeGreaterThanOrEqual(3);
});
