import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium by default (no browser download here); Playwright's own browser where one is installed.
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const port = Number(process.env.E2E_PORT ?? 4400);
const hasMock = existsSync('mock/server.ts');

/**
 * The site server's command and build folder: its own build in `outDir`, made first (a suite run
 * alone), or the one build `npm test` made for every suite (E2E_BUILT, package.json `test`).
 */
export function siteBuild(outDir: string): { command: string; outDir: string } {
  const built = process.env.E2E_BUILT;
  return built
    ? { command: 'node scripts/e2e-server.mjs', outDir: built }
    : { command: 'npm run build && node scripts/e2e-server.mjs', outDir };
}
const site = siteBuild(process.env.MASTHEAD_OUT_DIR ?? './dist');

export default defineConfig({
  testDir: 'tests/e2e',
  // Its own folder: npm test runs the other browser suites beside it, and each run empties its folder.
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${port}`,
    // Recording a trace costs every test (DOM snapshots and a screencast per action, +50-70 % browser
    // CPU), passing or not: only a retry is traced (CI retries once; here, `--retries 1` or `--trace on`).
    trace: 'on-first-retry',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          ...(chromiumPath ? { executablePath: chromiumPath } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    ...(hasMock
      ? [
          {
            command: 'node mock/server.ts',
            url: 'http://127.0.0.1:4009/stats',
            // The suite reads many distinct pages quickly; site budget and mock limit are raised together.
            env: { MOCK_LIMIT_PUBLIC: '600', MOCK_LIMIT_LODGING: '600' },
            reuseExistingServer: !process.env.CI,
            timeout: 30_000,
          },
        ]
      : []),
    {
      command: site.command,
      url: `http://127.0.0.1:${port}/favicon.svg`,
      env: {
        E2E_PORT: String(port),
        MASTHEAD_OUT_DIR: site.outDir,
        ASTRO_TELEMETRY_DISABLED: '1',
        // No change watcher: tests count upstream calls, and nothing here publishes.
        WATCH_CHANGES: 'false',
        // Failures only: a line per request would bury the test output.
        LOG_LEVEL: 'warn',
        PUBLISHING_PUBLIC_PER_MINUTE: '600',
        LODGING_PER_MINUTE: '600',
        // Every e2e request comes from 127.0.0.1, one visitor: it may spend the whole upstream budget
        // (loopback is charged like any address) and the per-visitor booking limits are raised.
        UPSTREAM_VISITOR_SHARE: '1',
        UPSTREAM_LODGING_SEARCH_SHARE: '1',
        BOOKING_PER_IP_PER_10_MIN: '200',
        BOOKING_SEARCHES_PER_IP_PER_MIN: '600',
        // Known to tests/e2e/images.spec.ts, which forges addresses an attacker might sign.
        IMAGE_SIGNING_SECRET: process.env.E2E_IMAGE_SECRET ?? 'e2e-image-signing-secret',
        IMAGE_CACHE_DIR: '.cache/e2e-images',
        // tests/e2e/streams.spec.ts purges after an edit, as a newsroom would (helpers.ts E2E_PURGE_SECRET).
        PURGE_SECRETS: `harbour-times=${process.env.E2E_PURGE_SECRET ?? 'e2e-purge-secret-of-harbour-times-0123'}`,
        // The front page's route-cache life (60 s by default): its live band is watched changing.
        FRONT_PAGE_CACHE_SECONDS: '2',
        // Guests' e-mails go to the mail sink below (tests/e2e/mail/server.mjs).
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: '4325',
        SMTP_FROM: 'bookings@masthead.test',
      },
      reuseExistingServer: !process.env.CI,
      timeout: 180_000,
    },
    {
      command: 'node tests/e2e/mail/server.mjs 4325 4326',
      url: 'http://127.0.0.1:4326/health',
      reuseExistingServer: !process.env.CI,
      timeout: 10_000,
    },
    // Partner pages for the booking embed: 4322 is in harbour-times' allowedEmbedOrigins, 4323 is not.
    ...[4322, 4323].map((partnerPort) => ({
      command: `node tests/e2e/partner/server.mjs ${partnerPort}`,
      url: `http://127.0.0.1:${partnerPort}/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 10_000,
    })),
  ],
});
