import { defineConfig } from 'vitest/config';

/**
 * `npm run test:deploy`: the production delivery suite (tests/deploy/): nginx with the shipped
 * edge config in front of two `npm start` servers sharing one Redis, against the contract mock.
 * Needs nginx and redis-server (`.ci/run` installs them); builds once into dist-deploy/.
 */
export default defineConfig({
  test: {
    include: ['tests/deploy/**/*.test.ts'],
    globalSetup: ['tests/deploy/build.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
