// Imported by the built server's entry right after the settings check (src/integrations/settings-check.ts),
// so `npm start` and `node dist/server/entry.mjs` say how each tenant's APIs are read when they
// start, not on their first request. (`astro dev` logs them on its first request: the middleware.)
import { logProfileLines } from '../profiles/status.ts';
import { SecretsFileError } from '../secrets/schema.ts';
import { siteSecretsFile } from '../secrets/site.ts';
import { getTenants } from '../tenants/registry.ts';
import { logSecretsLineOnce, watchSecrets } from './secrets-line.ts';

// A secrets file that cannot be used (missing, unreadable, open to others, invalid) stops the start
// like an invalid setting, with the reason and never a value, rather than serving without tokens.
try {
  siteSecretsFile();
} catch (error) {
  if (!(error instanceof SecretsFileError)) throw error;
  console.error(`Masthead cannot start: ${error.message}`);
  process.exit(1);
}

logProfileLines(getTenants());
logSecretsLineOnce();
watchSecrets();
