import { defineConfig } from 'vitest/config';

/**
 * `npm run bench:tenants`: benches that reach site modules importing Vite's `?raw` (the change
 * watcher, the tenant registry), so they run under Vitest rather than plain Node. Minutes long.
 */
export default defineConfig({
  test: {
    include: ['bench/**/*.run.ts'],
    testTimeout: 60 * 60_000,
    pool: 'forks',
  },
});
