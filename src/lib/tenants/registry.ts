import tenantsText from '../../../tenants.json?raw';
import { parseTenantsText, type Tenant } from './schema.ts';

// Parsed once per process from the raw text (BOM and JSON errors handled like astro.config does).
const file = parseTenantsText(tenantsText);

export function getTenants(): readonly Tenant[] {
  return file.tenants;
}
