import { publishingClient, type PublishingClient } from '../publishing/client.ts';
import { profileFor } from '../profiles/site.ts';
import type { Tenant } from '../tenants/schema.ts';
import { tenantSecret } from '../tenants/secrets.ts';
import { siteUpstream } from '../upstream/site.ts';
import { snapshotPath } from '../static/mode.ts';
import { loadSnapshot, snapshotClient } from '../static/snapshot.ts';

/** The tenant's publishing client for anonymous reads (with the tenant's read token when one is configured). */
export function publishingFor(tenant: Tenant, userToken?: string): PublishingClient {
  // A static build renders from what it fetched before: no upstream call while rendering.
  const snapshot = snapshotPath();
  if (snapshot) return snapshotClient(loadSnapshot(snapshot));
  return publishingClient({
    tenantId: tenant.id,
    baseUrl: tenant.publishing.baseUrl,
    token: userToken,
    serviceToken: tenantSecret(tenant.publishing.tokenEnv),
    upstream: siteUpstream(),
    iframeHosts: tenant.publishing.embedHosts,
    profile: profileFor(tenant, 'publishing'),
  });
}
