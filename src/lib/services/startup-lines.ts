// Imported by the built server's entry right after the settings check (src/integrations/patches.ts).
// A tenants file or secrets file that cannot be used stops the start with the reason, like an
// invalid setting, instead of a server that answers 500 on every page or serves without tokens (a
// running server that reads a bad file keeps what it had instead). Then `npm start` and
// `node dist/server/entry.mjs` say how each tenant's APIs are read when they start, not on their
// first request, and start the change watchers and the invalidation listener (`astro dev` does
// both on its first request: the middleware).
import { logProfileLines } from '../profiles/status.ts';
import { SecretsFileError } from '../secrets/schema.ts';
import { siteSecretsFile } from '../secrets/site.ts';
import { errorMessage } from '../content/records.ts';
import { startFreshness } from '../freshness/start.ts';
import { getTenants, tenantRegistry } from '../tenants/registry.ts';
import { lingerBeforeClosing } from '../request/refusals.ts';
import { logSecretsLineOnce, watchSecrets } from './secrets-line.ts';

try {
  tenantRegistry();
} catch (error) {
  console.error(`Masthead cannot start: ${errorMessage(error)}`);
  process.exit(1);
}

// The secrets file's reason never holds a value.
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
startFreshness();
lingerBeforeClosing();
