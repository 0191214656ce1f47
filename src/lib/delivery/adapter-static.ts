// Stands in for @astrojs/node's `serve-static.js` in the built server (src/integrations/static-files.ts):
// the adapter's standalone server, so `node dist/server/entry.mjs` and `npm start` alike, serves the
// client files listed at start and hands every other request to the app without a disk lookup.
import { settings } from '../settings/settings.ts';
import { clientDirOf, staticHandler, type StaticHandler } from './static-files.ts';

/**
 * The adapter's signature. `headersMap` carries prerendered pages' headers when the adapter's
 * `staticHeaders` is on; it is off here (every page renders on demand and sends its own CSP).
 */
export function createStaticHandler(
  _app: unknown,
  options: { client: string; server: string },
  _headersMap?: unknown,
): StaticHandler {
  return staticHandler(clientDirOf(options, import.meta.url), {
    compression: settings().COMPRESSION,
  });
}
