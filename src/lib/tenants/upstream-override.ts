import { isRecord } from '../content/records.ts';
import { checkTenantProfiles, type ProfileTexts } from '../profiles/schema.ts';
import type { Settings } from '../settings/schema.ts';
import type { TenantsFileOptions } from './loader.ts';

export type Overrides = Pick<Settings, 'PUBLISHING_BASE_URL' | 'LODGING_BASE_URL'>;

/**
 * Deployment override of the upstream APIs: `PUBLISHING_BASE_URL` / `LODGING_BASE_URL` replace every
 * tenant's `publishing.baseUrl` / `lodging.baseUrl` (a staging API, or the contract mock on other
 * ports in tests). Applied to the raw file before validation, so a bad URL fails like a bad file.
 */
export function withUpstreamOverrides(raw: unknown, overrides: Overrides): unknown {
  const { PUBLISHING_BASE_URL: publishing, LODGING_BASE_URL: lodging } = overrides;
  if ((!publishing && !lodging) || !isRecord(raw) || !Array.isArray(raw['tenants'])) return raw;
  const tenants: unknown[] = structuredClone(raw['tenants']);
  for (const tenant of tenants) {
    if (!isRecord(tenant)) continue;
    if (publishing && isRecord(tenant['publishing'])) tenant['publishing']['baseUrl'] = publishing;
    if (lodging && isRecord(tenant['lodging'])) tenant['lodging']['baseUrl'] = lodging;
  }
  return { ...raw, tenants };
}

/** How the server and the doctor read the tenants file: overrides applied, named profiles checked. */
export function tenantsFileOptions(
  overrides: Overrides,
  profiles: ProfileTexts,
): TenantsFileOptions {
  return {
    adjust: (raw) => withUpstreamOverrides(raw, overrides),
    check: (tenants) => checkTenantProfiles(tenants, profiles),
  };
}
