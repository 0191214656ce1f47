import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

/** The Node adapter's server entry (`dist/server/entry.mjs` once built). */
const SERVER_ENTRY = /@astrojs\/node\/dist\/server\.js$/;
const STARTUP_CHECK = fileURLToPath(new URL('../lib/settings/startup-check.ts', import.meta.url));
/**
 * The tenants and secrets files (a bad one stops the start like a bad setting), the tenants'
 * start-up lines (upstream profiles, read tokens), then the change watchers and the invalidation
 * listener (issue 24), before the first visit: once the settings are fine.
 */
const STARTUP_LINES = fileURLToPath(new URL('../lib/services/startup-lines.ts', import.meta.url));
const HEALTH_ROUTE = fileURLToPath(new URL('./health-endpoint.ts', import.meta.url));

/**
 * Invalid settings fail loudly: the built server checks them before anything else and refuses to
 * start, and `/_health` is a route of its own that answers 503 naming them (pages cannot load then).
 */
export function settingsCheck(): AstroIntegration {
  return {
    name: 'masthead:settings-check',
    hooks: {
      'astro:config:setup': ({ injectRoute, updateConfig }) => {
        injectRoute({ pattern: '/_health', entrypoint: HEALTH_ROUTE, prerender: false });
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'masthead:settings-check',
                apply: 'build',
                transform(code: string, id: string) {
                  if (!SERVER_ENTRY.test(id)) return null;
                  // First imports: they run before the adapter sets anything up or listens.
                  const first = [STARTUP_CHECK, STARTUP_LINES].map(
                    (module) => `import ${JSON.stringify(module)};\n`,
                  );
                  return { code: `${first.join('')}${code}`, map: null };
                },
              },
            ],
          },
        });
      },
    },
  };
}
