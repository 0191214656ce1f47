import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { patchAtBuild } from './patch-at-build.ts';

/** The Node adapter's server entry (`dist/server/entry.mjs` once built). */
const SERVER_ENTRY = /@astrojs\/node\/dist\/server\.js$/;
const STARTUP_CHECK = fileURLToPath(new URL('../lib/settings/startup-check.ts', import.meta.url));
/**
 * The tenants and secrets files (a bad one stops the start like a bad setting), the tenants'
 * start-up lines (upstream profiles, read tokens), then the change watchers and the invalidation
 * listener (issue 24), before the first visit: once the settings are fine.
 */
const STARTUP_LINES = fileURLToPath(new URL('../lib/services/startup-lines.ts', import.meta.url));

/**
 * Invalid settings fail loudly: the built server checks them before anything else and refuses to
 * start (first imports: they run before the adapter sets anything up or listens), and `/_health` is
 * a route of its own that answers 503 naming them, pages cannot load then (./routes.ts).
 */
export function settingsCheck(): AstroIntegration {
  return patchAtBuild('masthead:settings-check', SERVER_ENTRY, (code) => {
    const first = [STARTUP_CHECK, STARTUP_LINES].map(
      (module) => `import ${JSON.stringify(module)};`,
    );
    return `${first.join('\n')}\n${code}`;
  });
}
