import { settings } from '../settings/settings.ts';
import { getTenants } from '../tenants/registry.ts';
import { resolveTenant } from '../tenants/resolution.ts';
import type { TenantMatch } from '../tenants/resolution.ts';
import { forwardedHost, publicOrigin } from './public-origin.ts';

/** The tenant a request addresses (host, `/<id>/` prefix, `?tenant=`, or single-tenant mode). */
export function tenantOfRequest(url: URL, headers: Headers): TenantMatch | null {
  const { MASTHEAD_TENANT, TRUST_PROXY } = settings();
  return resolveTenant(
    {
      url,
      forwardedHost: forwardedHost(headers, TRUST_PROXY),
      trustProxy: TRUST_PROXY,
      forcedTenantId: MASTHEAD_TENANT,
      publicOrigin: publicOrigin(url, headers, TRUST_PROXY),
    },
    getTenants(),
  );
}
