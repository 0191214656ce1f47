import { defineMiddleware } from 'astro:middleware';
import { tenantSecrets } from '../secrets/site.ts';
import { purgeResponse } from './purge.ts';

/** `POST /_purge` on a tenant's host (./purge.ts); after tenant resolution. */
export const purgeEndpoint = defineMiddleware((context, next) => {
  const match = context.locals.tenantMatchOrNull;
  if (context.url.pathname !== '/_purge' || !match) return next();
  return purgeResponse({
    tenant: match.tenant,
    request: context.request,
    clientIp: context.locals.visitor.address,
    // Looked up per request: a secret added to SECRETS_FILE works without a restart.
    secret: tenantSecrets(match.tenant).values.purgeSecret,
  });
});
