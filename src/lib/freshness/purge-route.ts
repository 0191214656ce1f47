import { defineMiddleware } from 'astro:middleware';
import { clientIp } from '../request/visitor-limits.ts';
import { tenantSecrets } from '../secrets/site.ts';
import { settings } from '../settings/settings.ts';
import { purgeResponse } from './purge.ts';

const { REDIS_URL, EDGE_PURGE_URL, TRUST_PROXY } = settings();

/** `POST /_purge` on a tenant's host (./purge.ts); after tenant resolution. */
export const purgeEndpoint = defineMiddleware((context, next) => {
  const match = context.locals.site;
  if (context.url.pathname !== '/_purge' || !match) return next();
  return purgeResponse({
    tenant: match.tenant,
    request: context.request,
    clientIp: clientIp(context, TRUST_PROXY),
    // Looked up per request: a secret added to SECRETS_FILE works without a restart.
    secret: tenantSecrets(match.tenant).values.purgeSecret,
    redisUrl: REDIS_URL,
    edgePurgeUrl: EDGE_PURGE_URL,
  });
});
