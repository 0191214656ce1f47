import { resolve } from 'node:path';
import { logInfo, logWarn } from '../log/log.ts';
import { profileTexts, type ProfileTexts } from '../profiles/schema.ts';
import { readSettings } from '../settings/settings.ts';
import { onHangup } from '../settings/watched-file.ts';
import { createTenantRegistry } from './loader.ts';
import type { TenantRegistry, TenantsChange } from './loader.ts';
import type { Tenant } from './schema.ts';
import { tenantsFileOptions } from './upstream-override.ts';

/**
 * The site's one registry of `TENANTS_FILE` (./loader.ts), read when first asked; another server's
 * reload reaches it through src/lib/freshness/tenants.ts.
 */
let registry: TenantRegistry | undefined;

// Every file of profiles/, bundled at build time (tenants name them; custom ones are added there).
const bundled = import.meta.glob<string>('../../../profiles/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
});

let texts: ProfileTexts | undefined;

/** The profiles the server was built with: what a tenant of the tenants file may name. */
export function siteProfileTexts(): ProfileTexts {
  return (texts ??= profileTexts(Object.entries(bundled)));
}

/** The registry of this process (created on first use: throws when the file is invalid then). */
export function tenantRegistry(): TenantRegistry {
  if (registry) return registry;
  const { TENANTS_FILE, TENANTS_WATCH, MASTHEAD_STATIC_SNAPSHOT, ...overrides } = readSettings([
    'TENANTS_FILE',
    'TENANTS_WATCH',
    'MASTHEAD_STATIC_SNAPSHOT',
    'PUBLISHING_BASE_URL',
    'LODGING_BASE_URL',
  ]);
  const created = createTenantRegistry({
    path: resolve(TENANTS_FILE),
    // Checked against the profiles and the public files the server was built with.
    file: tenantsFileOptions(overrides, siteProfileTexts(), new Set(__MASTHEAD_PUBLIC_FILES__)),
    log: { info: logInfo, warn: logWarn },
  });
  registry = created;
  // A static build's renderer lives for one build: nothing to follow.
  if (MASTHEAD_STATIC_SNAPSHOT) return created;
  if (TENANTS_WATCH) created.watch();
  onHangup(() => created.reload('signal'));
  return created;
}

/** The tenants now: look them up per request, never keep the list. */
export function getTenants(): readonly Tenant[] {
  return tenantRegistry().tenants();
}

/** Calls `listener` after every reload that added, changed or removed a tenant. */
export function onTenantsChange(listener: (change: TenantsChange) => void): () => void {
  return tenantRegistry().onChange(listener);
}
