import { getSecret } from 'astro:env/server';

/**
 * A credential named in the tenant's config (`tokenEnv`, `emailEnv`, `passwordEnv`), read from the
 * environment at run time. These names come from tenants.json, so they cannot be declared in the
 * `astro:env` schema like the site's own settings.
 */
export function tenantSecret(name: string | undefined): string | undefined {
  return name === undefined ? undefined : getSecret(name);
}
