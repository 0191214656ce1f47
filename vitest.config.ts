/// <reference types="vitest/config" />
import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { getViteConfig } from 'astro/config';

// Components render through Astro's compiler (Container API); everything else runs as plain Node.
const COMPONENT_TESTS = 'tests/unit/components/**/*.test.ts';

/**
 * Unit and contract files share one process (`isolate: false`: the modules are loaded once, not
 * once per file, which was a third of the suite's time), and so do the components (Astro's
 * compiler and renderer loaded once: 40 → 26 CPU s), except those that change what a module sees
 * when it loads or stub one (env, mocks, spies, a fresh `import()`): those and the integration
 * suites (servers, settings, tenants files) run each in a fresh process.
 */
const SHARED = ['tests/unit/**/*.test.ts', 'tests/contract/**/*.test.ts'];
const ISOLATED_ONLY =
  /vi\.(mock|doMock|stubEnv|stubGlobal|spyOn|resetModules|useFakeTimers)\(|await import\(|process\.env\b/;
// And what a process does once (its random fallback secret, warned about once).
const ONCE_PER_PROCESS = ['tests/unit/booking/manage-link.test.ts'];
const ownProcess = globSync(SHARED, { cwd: import.meta.dirname }).filter(
  (file) => ONCE_PER_PROCESS.includes(file) || ISOLATED_ONLY.test(readFileSync(file, 'utf8')),
);

// Astro's Vite config, so modules that import Astro's virtual modules (`astro:actions`, …) load in tests.
export default getViteConfig({
  test: {
    // Contract and integration suites start real servers on free ports.
    testTimeout: 20_000,
    // Failures only: the route cache's flood test alone would print 40,000 request lines.
    env: { LOG_LEVEL: 'warn' },
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers at least (Vitest's default is one on 2 cores): most integration files mostly
    // wait (servers, rate windows, timeouts), so a second worker runs while the first waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: SHARED,
          exclude: [COMPONENT_TESTS, ...ownProcess],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'node', include: ['tests/integration/**/*.test.ts', ...ownProcess] },
      },
      {
        extends: true,
        test: {
          name: 'components',
          include: [COMPONENT_TESTS],
          exclude: ownProcess,
          isolate: false,
        },
      },
    ],
  },
});
