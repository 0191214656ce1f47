import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// The static build's journeys: global setup builds one tenant against its own mock (free ports, public
// limit lowered) and serves the files with sirv-cli on a free port; nothing here uses the fixed e2e ports.
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests/static',
  // Its own folder: npm test runs it beside the e2e suite, and each run empties its folder first.
  outputDir: 'test-results/static',
  globalSetup: './tests/static/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  timeout: 60_000,
  // No trace of passing tests (it costs every test's browser time): `--retries 1` traces a failure's retry.
  use: { trace: 'on-first-retry' },
  projects: [
    {
      name: 'static-chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          ...(chromiumPath ? { executablePath: chromiumPath } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--no-first-run',
          ],
        },
      },
    },
  ],
});
