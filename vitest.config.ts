import { defineConfig } from 'vitest/config';

export default defineConfig({
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
