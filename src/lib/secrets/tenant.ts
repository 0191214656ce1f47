import type { Tenant } from '../tenants/schema.ts';
import { SECRET_KEY_NAMES, type SecretKey, type TenantSecretValues } from './schema.ts';

/**
 * One tenant's secrets, per secret: the secrets file first, then the variable tenants.json names
 * (`tokenEnv`, `emailEnv`, `passwordEnv`) or the tenant's pair in `PURGE_SECRETS`. The file wins:
 * it can change while the server runs, and a token rotated there must beat last deploy's variable.
 */

export type SecretTenant = Pick<Tenant, 'id' | 'publishing' | 'lodging'>;

export interface SecretSources {
  /** The file's entry for this tenant id (none without a file). */
  file: (tenantId: string) => TenantSecretValues | undefined;
  /** A variable by name (the environment). */
  variable: (name: string | undefined) => string | undefined;
  /** `PURGE_SECRETS` by tenant id. */
  purgeSecrets: ReadonlyMap<string, string>;
}

export interface TenantSecrets {
  values: Partial<Record<SecretKey, string>>;
  /** Where each value came from: `SECRETS_FILE` or the variable's name (for the doctor). */
  from: Partial<Record<SecretKey, string>>;
}

export function resolveTenantSecrets(tenant: SecretTenant, sources: SecretSources): TenantSecrets {
  const inFile = sources.file(tenant.id) ?? {};
  const variable = (name: string | undefined) => [sources.variable(name), name ?? ''] as const;
  // Where each secret falls back to: the variable tenants.json names, or `PURGE_SECRETS`.
  const fallbacks: Record<SecretKey, readonly [string | undefined, string]> = {
    publishingReadToken: variable(tenant.publishing.tokenEnv),
    lodgingToken: variable(tenant.lodging?.tokenEnv),
    lodgingEmail: variable(tenant.lodging?.emailEnv),
    lodgingPassword: variable(tenant.lodging?.passwordEnv),
    purgeSecret: [sources.purgeSecrets.get(tenant.id), 'PURGE_SECRETS'],
  };
  const values: TenantSecrets['values'] = {};
  const from: TenantSecrets['from'] = {};
  for (const key of SECRET_KEY_NAMES) {
    const [fromVariable, name] = fallbacks[key];
    const value = inFile[key] ?? fromVariable;
    if (value === undefined) continue;
    values[key] = value;
    from[key] = inFile[key] !== undefined ? 'SECRETS_FILE' : name;
  }
  return { values, from };
}

/** The lodging API's credentials: a token, or an e-mail and password to sign in with. */
export interface LodgingCredentials {
  token?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
}

export function lodgingCredentials(secrets: TenantSecrets): LodgingCredentials {
  const { lodgingToken, lodgingEmail, lodgingPassword } = secrets.values;
  return { token: lodgingToken, email: lodgingEmail, password: lodgingPassword };
}

export const hasLodgingCredentials = (credentials: LodgingCredentials): boolean =>
  Boolean(credentials.token || (credentials.email && credentials.password));

/**
 * The secrets this tenant lacks, by their name in the secrets file: `publishingReadToken`
 * (its reads share the anonymous budget), `lodgingToken` (a tenant with lodging cannot book without
 * it or the e-mail and password), `purgeSecret` (its `POST /_purge` is off).
 */
export function missingSecrets(tenant: SecretTenant, secrets: TenantSecrets): SecretKey[] {
  const missing: SecretKey[] = [];
  if (!secrets.values.publishingReadToken) missing.push('publishingReadToken');
  if (tenant.lodging && !hasLodgingCredentials(lodgingCredentials(secrets)))
    missing.push('lodgingToken');
  if (!secrets.values.purgeSecret) missing.push('purgeSecret');
  return missing;
}
