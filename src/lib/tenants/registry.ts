import tenantsText from '../../../tenants.json?raw';
import { parseTenantsText, type Tenant } from './schema.ts';
import { withUpstreamOverrides } from './upstream-override.ts';

// Parsed once per process from the raw text (BOM and JSON errors handled like astro.config does),
// with the deployment's upstream overrides applied before validation.
const file = parseTenantsText(tenantsText, 'tenants.json', withUpstreamOverrides);

export function getTenants(): readonly Tenant[] {
  return file.tenants;
}
