import type { Tenant } from '../tenants/schema.ts';
import { siteProfileTexts } from '../tenants/registry.ts';
import type { ServiceProfile } from '../upstream/profile.ts';
import { resolveProfile } from './schema.ts';
import type { ProfileService } from './schema.ts';
import { memo } from '../memo.ts';

// Per tenant object: a reload of the tenants file makes new objects of the tenants it changed only.
const resolved = memo((tenant: Tenant) =>
  memo(
    (service: ProfileService) =>
      resolveProfile(service, tenant[service]?.profile, siteProfileTexts()),
    { max: 2 },
  ),
);

/** The tenant's profile for `service` (resolved once); undefined when it names none. */
export function profileFor(tenant: Tenant, service: ProfileService): ServiceProfile | undefined {
  return resolved(tenant)(service);
}
