import { publishingClient, type PublishingClient } from '../publishing/client.ts';
import type { Tenant } from '../tenants/schema.ts';

/** The tenant's publishing client for anonymous reads (with the tenant's read token when one is configured). */
export function publishingFor(tenant: Tenant, userToken?: string): PublishingClient {
  const readToken = tenant.publishing.tokenEnv
    ? process.env[tenant.publishing.tokenEnv]
    : undefined;
  return publishingClient({
    tenantId: tenant.id,
    baseUrl: tenant.publishing.baseUrl,
    token: userToken,
    serviceToken: readToken,
    iframeHosts: tenant.publishing.embedHosts,
  });
}
