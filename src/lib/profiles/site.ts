import type { Tenant } from '../tenants/schema.ts';
import type { ServiceProfile } from '../upstream/profile.ts';
import { profileTexts, resolveProfile } from './schema.ts';
import type { ProfileService, ProfileTexts } from './schema.ts';

// Every file of profiles/, bundled at build time (tenants name them; custom ones are added there).
const bundled = import.meta.glob<string>('../../../profiles/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
});

let texts: ProfileTexts | undefined;
// Per tenant object: the registry's are fixed for the life of the process.
const resolved = new WeakMap<Tenant, Map<ProfileService, ServiceProfile | undefined>>();

export function siteProfileTexts(): ProfileTexts {
  texts ??= profileTexts(Object.entries(bundled));
  return texts;
}

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
