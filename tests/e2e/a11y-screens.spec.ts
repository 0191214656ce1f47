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

    test('axe finds nothing serious on any page type', async ({ page }) => {
      test.slow(); // some twenty pages, each through axe
      for (const type of await pageTypes(planet)) {
        await test.step(type.name, async () => {
          await page.goto(tenantUrl(planet.id, type.path));
          await checkA11y(page);
        });
      }
    });
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
