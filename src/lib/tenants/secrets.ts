import { namedSecret } from '../settings/settings.ts';

/**
 * A credential named in the tenant's config (`tokenEnv`, `emailEnv`, `passwordEnv`), read from the
 * environment at run time. These names come from tenants.json, so they cannot be declared in the
 * settings schema like the site's own settings.
 */
export function tenantSecret(name: string | undefined): string | undefined {
  return namedSecret(name);
}
