import { defineMiddleware } from 'astro:middleware';
import { clientIp } from '../request/visitor-limits.ts';
import { settings } from '../settings/settings.ts';
import { purgeResponse, purgeSecrets } from './purge.ts';

const { PURGE_SECRETS, REDIS_URL, EDGE_PURGE_URL, TRUST_PROXY } = settings();
const secrets = purgeSecrets(PURGE_SECRETS);

/** `POST /_purge` on a tenant's host (./purge.ts); after tenant resolution. */
export const purgeEndpoint = defineMiddleware((context, next) => {
  const match = context.locals.site;
  if (context.url.pathname !== '/_purge' || !match) return next();
  return purgeResponse({
    tenant: match.tenant,
    request: context.request,
    clientIp: clientIp(context, TRUST_PROXY),
    secrets,
    redisUrl: REDIS_URL,
    edgePurgeUrl: EDGE_PURGE_URL,
  });
});
