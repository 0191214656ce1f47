/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Components render through Astro's compiler (Container API); everything else runs as plain Node.
const COMPONENT_TESTS = 'tests/unit/components/**/*.test.ts';

// Astro's Vite config, so modules that import Astro's virtual modules (`astro:actions`, …) load in tests.
export default getViteConfig({
  test: {
    // Contract and integration suites start real servers on free ports.
    testTimeout: 20_000,
    // Failures only: the route cache's flood test alone would print 40,000 request lines.
    env: { LOG_LEVEL: 'warn' },
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'tests/unit/**/*.test.ts',
            'tests/contract/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          exclude: [COMPONENT_TESTS],
        },
      },
      { extends: true, test: { name: 'components', include: [COMPONENT_TESTS] } },
    ],
  },
});
