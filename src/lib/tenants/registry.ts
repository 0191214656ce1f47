import rawTenants from '../../../tenants.json' with { type: 'json' };
import { parseTenantsFile, type Tenant } from './schema.ts';
import { withUpstreamOverrides } from './upstream-override.ts';

// Parsed once per process; astro.config has already refused an invalid file at dev/build start.
const file = parseTenantsFile(withUpstreamOverrides(rawTenants));

export function getTenants(): readonly Tenant[] {
  return file.tenants;
}
