import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { patchAtBuild } from './patch-at-build.ts';

const STANDALONE = /@astrojs[\\/]node[\\/]dist[\\/]standalone\.js$/;
const ADAPTER_IMPORT = 'from "./serve-static.js"';
const OURS = fileURLToPath(new URL('../lib/delivery/static-files.ts', import.meta.url));

/**
 * The Node adapter's standalone server with Masthead's static handler (src/lib/delivery/static-files.ts):
 * the adapter's own stats the path of every request on disk before a page renders. The build fails
 * if the adapter's file no longer imports its handler the way this replaces it.
 */
export function staticFiles(): AstroIntegration {
  return patchAtBuild('masthead:static-files', STANDALONE, (code, id) => {
    if (!code.includes(ADAPTER_IMPORT)) {
      throw new Error(
        `@astrojs/node changed: ${id} no longer imports ./serve-static.js (src/integrations/static-files.ts)`,
      );
    }
    return code.replace(ADAPTER_IMPORT, `from ${JSON.stringify(OURS)}`);
  });
}
