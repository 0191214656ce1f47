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
const resolved = new Map<string, ServiceProfile | undefined>();

export function siteProfileTexts(): ProfileTexts {
  texts ??= profileTexts(Object.entries(bundled));
  return texts;
}

/** The tenant's profile for `service` (resolved once); undefined when it names none. */
export function profileFor(tenant: Tenant, service: ProfileService): ServiceProfile | undefined {
  const key = `${tenant.id}|${service}`;
  if (!resolved.has(key)) {
    const ref = service === 'publishing' ? tenant.publishing.profile : tenant.lodging?.profile;
    resolved.set(key, resolveProfile(service, ref, siteProfileTexts()));
  }
  return resolved.get(key);
}
