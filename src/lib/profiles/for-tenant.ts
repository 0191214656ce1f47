import type { Tenant } from '../tenants/schema.ts';
import { siteProfileTexts } from '../tenants/profile-files.ts';
import type { ServiceProfile } from '../upstream/profile.ts';
import { resolveProfile } from './schema.ts';
import type { ProfileService } from './schema.ts';

// Per tenant object: a reload of the tenants file makes new objects of the tenants it changed only.
const resolved = new WeakMap<Tenant, Map<ProfileService, ServiceProfile | undefined>>();

/** The tenant's profile for `service` (resolved once); undefined when it names none. */
export function profileFor(tenant: Tenant, service: ProfileService): ServiceProfile | undefined {
  let byService = resolved.get(tenant);
  if (!byService) {
    byService = new Map<ProfileService, ServiceProfile | undefined>();
    resolved.set(tenant, byService);
  }
  if (!byService.has(service)) {
    const ref = service === 'publishing' ? tenant.publishing.profile : tenant.lodging?.profile;
    byService.set(service, resolveProfile(service, ref, siteProfileTexts()));
  }
  return byService.get(service);
}
