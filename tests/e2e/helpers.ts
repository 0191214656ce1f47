import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4400);
/** Harbour Times' bearer secret of `POST /_purge` on the e2e server (PURGE_SECRETS, playwright.config.ts). */
export const E2E_PURGE_SECRET =
  process.env.E2E_PURGE_SECRET ?? 'e2e-purge-secret-of-harbour-times-0123';

/** `http://<tenant>.localhost:<port><path>`: Chromium resolves every *.localhost name to loopback. */
export function tenantUrl(tenantId: string, path = '/'): string {
  return `http://${tenantId}.localhost:${E2E_PORT}${path}`;
}

/** Fails on serious or critical axe violations, listing them. */
export async function checkA11y(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
  expect(serious, serious.join('\n')).toEqual([]);
}

/** Console errors and uncaught exceptions of a page (a CSP refusal shows up here too). */
export function watchErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return () => errors;
}
