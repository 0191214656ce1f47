import { defineConfig } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import base, { siteBuild } from './playwright.config.ts';

/**
 * The site against the mock's alt dialect (MOCK_DIALECT=alt: the other reading of every silence in
 * the contracts), on its own ports and build, so it runs beside the default e2e suite. Every tenant
 * reads it through the alt publishing profile (profiles/publishing-alt.json), as a deployment would.
 */
const tenantsFile = '.cache/tenants-alt.json';
const tenants = JSON.parse(readFileSync('tenants.json', 'utf8')) as {
  tenants: { publishing: Record<string, unknown> }[];
};
for (const tenant of tenants.tenants) tenant.publishing['profile'] = 'publishing-alt';
mkdirSync('.cache', { recursive: true });
writeFileSync(tenantsFile, JSON.stringify(tenants, null, 2));
const site = siteBuild('./dist-alt');
const port = 4600;
const mock = { control: 4609, publishing: 4610, lodging: 4620 };

export default defineConfig({
  ...base,
  testDir: 'tests/e2e-alt',
  // Its own folder: npm test runs it beside the e2e suite, and each run empties its folder first.
  outputDir: 'test-results/alt',
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  webServer: [
    {
      command: 'node mock/server.ts',
      url: `http://127.0.0.1:${mock.control}/`,
      env: {
        MOCK_DIALECT: 'alt',
        MOCK_CONTROL_PORT: String(mock.control),
        MOCK_PUBLISHING_PORT: String(mock.publishing),
        MOCK_LODGING_PORT: String(mock.lodging),
        MOCK_LIMIT_PUBLIC: '600',
        MOCK_LIMIT_LODGING: '600',
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: site.command,
      url: `http://127.0.0.1:${port}/favicon.svg`,
      env: {
        E2E_PORT: String(port),
        TENANTS_FILE: tenantsFile,
        MASTHEAD_OUT_DIR: site.outDir,
        ASTRO_TELEMETRY_DISABLED: '1',
        // No change watcher: tests count upstream calls, and nothing here publishes.
        WATCH_CHANGES: 'false',
        // Failures only: a line per request would bury the test output.
        LOG_LEVEL: 'warn',
        PUBLISHING_BASE_URL: `http://127.0.0.1:${mock.publishing}/api/v1`,
        LODGING_BASE_URL: `http://127.0.0.1:${mock.lodging}/api/v1`,
        PUBLISHING_PUBLIC_PER_MINUTE: '600',
        LODGING_PER_MINUTE: '600',
        // One visitor (127.0.0.1) may spend the whole budget: loopback is charged like any address.
        UPSTREAM_VISITOR_SHARE: '1',
        UPSTREAM_LODGING_SEARCH_SHARE: '1',
        BOOKING_PER_IP_PER_10_MIN: '200',
        BOOKING_SEARCHES_PER_IP_PER_MIN: '600',
      },
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
