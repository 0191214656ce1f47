import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * The site against a third API shape, like neither mock dialect (tests/fixtures/third-api.ts), and
 * against an API whose names are made up on each run (tests/fixtures/random-api.ts): a fork of this
 * project with its own tenants.json, profiled by `npm run doctor -- <tenant> --write` for each, one
 * build serving both tenants (tests/e2e-third/stack.ts). Own ports (4800–4899) and build: runs
 * beside the others.
 */
const port = 4800;
const apiPort = 4810;
const randomApiPort = 4820;

export default defineConfig({
  ...base,
  testDir: 'tests/e2e-third',
  // Its own folder: npm test runs it beside the e2e suite, and each run empties its folder first.
  outputDir: 'test-results/third',
  use: { ...base.use, baseURL: `http://third-times.localhost:${port}` },
  webServer: [
    {
      command: 'node tests/e2e-third/stack.ts',
      url: `http://127.0.0.1:${port}/favicon.svg`,
      env: {
        THIRD_PORT: String(port),
        THIRD_API_PORT: String(apiPort),
        RANDOM_API_PORT: String(randomApiPort),
      },
      reuseExistingServer: !process.env.CI,
      timeout: 240_000,
    },
  ],
});
