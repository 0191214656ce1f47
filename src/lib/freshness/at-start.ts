// Imported by the built server's entry after the settings check and the start-up lines
// (src/integrations/settings-check.ts): `npm start` and `node dist/server/entry.mjs` start the change
// watchers and the invalidation listener when they start, not on their first request. (`astro dev`
// starts them on its first request: the middleware.)
import { startFreshness } from './start.ts';

startFreshness();
