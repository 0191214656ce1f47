import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { DEMO_TENANTS, pageTypes } from './page-types.ts';
import { tenantUrl } from './helpers.ts';

// The Content-Security-Policy stays strict with styles and scripts served as files (issue 23): the
// site's own styles and scripts load without a violation, and an injected inline script or style
// does not run.
const tenant = DEMO_TENANTS[0]!;
// What Astro hashed for each external stylesheet and script (src/integrations/patches.ts).
const HASH_OF_NOTHING = `'sha256-${createHash('sha256').update('').digest('base64')}'`;

test('an injected inline script and style are blocked on a post page', async ({ page }) => {
  const types = await pageTypes(tenant);
  const post = types.find((type) => type.name === 'post')!;
  await page.goto(tenantUrl(tenant.id, post.path));
  const before = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const outcome = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.violatedDirective),
    );
    const script = document.createElement('script');
    script.textContent = 'window.injectedRan = true;';
    document.body.append(script);
    const style = document.createElement('style');
    style.textContent = 'body { background-color: rgb(1, 2, 3) !important; }';
    document.head.append(style);
    // Violation events are dispatched asynchronously.
    for (let i = 0; i < 50 && violations.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return {
      ran: (window as unknown as { injectedRan?: boolean }).injectedRan === true,
      background: getComputedStyle(document.body).backgroundColor,
      violations,
    };
  });
  expect(outcome.ran).toBe(false);
  expect(outcome.background).toBe(before);
  expect(outcome.violations.map((directive) => directive.split('-')[0])).toEqual(
    expect.arrayContaining(['script', 'style']),
  );
});

test('every page type loads its own styles and scripts without a CSP violation', async ({
  page,
}) => {
  test.slow();
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  for (const type of await pageTypes(tenant)) {
    const response = await page.goto(tenantUrl(tenant.id, type.path));
    expect(response?.status(), type.path).toBeLessThan(500);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy, type.path).toMatch(/script-src 'self'/);
    // No plugin objects, and no injected `<base>` to send relative links and forms elsewhere.
    expect(policy, type.path).toMatch(/object-src 'none';base-uri 'self';/);
    expect(policy, type.path).not.toMatch(/unsafe-inline/);
    expect(policy, type.path).not.toContain(HASH_OF_NOTHING);
    // The site's stylesheets are files and applied (a refused one would have no rules).
    const sheets = await page.evaluate(() =>
      [...document.styleSheets]
        .filter((sheet) => sheet.href?.includes('/_astro/'))
        .map((sheet) => sheet.cssRules.length),
    );
    expect(sheets.length, type.path).toBeGreaterThan(0);
    expect(
      sheets.every((rules) => rules > 0),
      type.path,
    ).toBe(true);
  }
  expect(refused).toEqual([]);
});
