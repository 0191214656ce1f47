import { isRecord } from '../content/records.ts';
import { checkTenantProfiles, type ProfileTexts } from '../profiles/schema.ts';
import type { Settings } from '../settings/schema.ts';
import type { TenantsFileOptions } from './loader.ts';
import type { Tenant } from './schema.ts';

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

/** Whether `src` names one of `files` (URL paths), its query and escapes aside. */
function isFileOf(src: string, files: ReadonlySet<string>): boolean {
  try {
    return files.has(decodeURI(new URL(src, 'https://site.invalid').pathname));
  } catch {
    return false;
  }
}

/**
 * A logo the server can show: a file of its build (`files`: public/ as built) or an https address
 * (http is mixed content on an https site). Throws naming the tenant and the field.
 */
export function checkLogos(tenants: readonly Tenant[], files: ReadonlySet<string>): void {
  tenants.forEach(({ id, theme }, index) => {
    const src = theme.logo?.src;
    if (!src) return;
    const shown = src.startsWith('/')
      ? isFileOf(src, files)
      : URL.parse(src)?.protocol === 'https:';
    if (shown) return;
    throw new Error(
      `tenant "${id}" (tenants[${index}]) → theme.logo.src: "${src}" is neither a file of this build (public/) nor an https:// address`,
    );
  });
}

/**
 * How the server and the doctor read the tenants file: overrides applied, named profiles checked,
 * and logos when the build's files are known.
 */
export function tenantsFileOptions(
  overrides: Overrides,
  profiles: ProfileTexts,
  builtFiles?: ReadonlySet<string>,
): TenantsFileOptions {
  return {
    adjust: (raw) => withUpstreamOverrides(raw, overrides),
    check: (tenants) => {
      checkTenantProfiles(tenants, profiles);
      if (builtFiles) checkLogos(tenants, builtFiles);
    },
  };
}
