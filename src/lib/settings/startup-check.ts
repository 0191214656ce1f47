// Imported first by the built server's entry (src/integrations/patches.ts), so
// `node dist/server/entry.mjs` and `npm start` refuse to start with an invalid setting instead of
// listening and answering 500 on every page.
import { listenChoice } from './listen.ts';
import { settingsOrExit, tellAdapter } from './settings.ts';

const current = settingsOrExit();

// Behind a trusted proxy only the proxy may reach Node: loopback without a HOST (the adapter reads
// HOST when it listens, after these imports), a warning with one others can reach.
const listen = listenChoice(current);
if (listen.host !== undefined && current.HOST === undefined) tellAdapter({ HOST: listen.host });
if (listen.warning) console.warn(`Masthead: ${listen.warning}`);
