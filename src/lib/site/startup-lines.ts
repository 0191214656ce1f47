// Imported by the built server's entry right after the settings check (src/integrations/settings-check.ts),
// so `npm start` and `node dist/server/entry.mjs` say how each tenant's APIs are read when they
// start, not on their first request. (`astro dev` logs them on its first request: the middleware.)
import { logProfileLines } from '../profiles/status.ts';
import { getTenants } from '../tenants/registry.ts';
import { warnTenantsWithoutReadToken } from '../upstream/warnings.ts';
import { siteUpstream } from './clients.ts';

logProfileLines(getTenants());
warnTenantsWithoutReadToken(getTenants(), siteUpstream());
