/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Astro's Vite config, so modules that read `astro:env/server` (the site's settings) load in tests.
export default getViteConfig({
  test: {
    include: [
      'tests/unit/**/*.test.ts',
      'tests/contract/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    // Contract and integration suites start real servers on free ports.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
