import { defineConfig } from '@playwright/test';
import base, { siteBuild } from './playwright.config.ts';

/**
 * The site against the mock in photo mode (MOCK_MEDIA=photos: 3000×2000 JPEG covers, editions of
 * 24–26 page scans of 2200×3000), as a newsroom's data is: what a phone downloads and shows, and the
 * reader's fit and page turns with real page shapes (tests/e2e/reader-fit.spec.ts and
 * reader-turns.spec.ts run here too). Own ports (4900–4920) and build, so it runs beside the other
 * suites.
 */
const site = siteBuild('./dist-photos');
const port = 4900;
const mock = { control: 4909, publishing: 4910, lodging: 4920 };
const api = `http://127.0.0.1:${mock.publishing}/api/v1`;
process.env['E2E_PORT'] = String(port);
process.env['E2E_MOCK_API'] = api;

export default defineConfig({
  ...base,
  testDir: 'tests',
  // Its own folder: npm test runs it beside the e2e suite, and each run empties its folder first.
  outputDir: 'test-results/photos',
  testMatch: ['e2e-photos/**/*.spec.ts', 'e2e/reader-fit.spec.ts', 'e2e/reader-turns.spec.ts'],
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  webServer: [
    {
      command: 'node mock/server.ts',
      url: `http://127.0.0.1:${mock.control}/`,
      env: {
        MOCK_MEDIA: 'photos',
        MOCK_CONTROL_PORT: String(mock.control),
        MOCK_PUBLISHING_PORT: String(mock.publishing),
        MOCK_LODGING_PORT: String(mock.lodging),
        MOCK_LIMIT_PUBLIC: '600',
        MOCK_LIMIT_LODGING: '600',
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: site.command,
      url: `http://127.0.0.1:${port}/favicon.svg`,
      env: {
        E2E_PORT: String(port),
        MASTHEAD_OUT_DIR: site.outDir,
        ASTRO_TELEMETRY_DISABLED: '1',
        WATCH_CHANGES: 'false',
        LOG_LEVEL: 'warn',
        PUBLISHING_BASE_URL: api,
        LODGING_BASE_URL: `http://127.0.0.1:${mock.lodging}/api/v1`,
        PUBLISHING_PUBLIC_PER_MINUTE: '600',
        LODGING_PER_MINUTE: '600',
        UPSTREAM_VISITOR_SHARE: '1',
        IMAGE_CACHE_DIR: '.cache/e2e-photos-images',
      },
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
