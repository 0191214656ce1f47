import type { SecretKey } from '../../secrets/schema.ts';
import type { Tenant } from '../../tenants/schema.ts';
import type { Overrides } from '../../tenants/upstream-override.ts';
import type { ProfileService } from '../schema.ts';

/**
 * What the doctor checks is what `npm start` would read: the tenants file through the same loader,
 * with `PUBLISHING_BASE_URL` / `LODGING_BASE_URL` applied and the profiles it names checked, the
 * secrets from `SECRETS_FILE` then the variables. It says which address it read for each service,
 * and, when an API refuses it, which secret or variable to set.
 */

export interface ServiceTarget {
  service: ProfileService;
  baseUrl: string;
  /** Where the address came from: the override setting or the tenants file. */
  from: string;
  /** How the doctor signs its reads: `token from LODGING_TOKEN`, `anonymous`, … (never a value). */
  auth: string;
}

/** Secret values, or where each came from. */
type Secrets = Partial<Record<SecretKey, string>>;

const SETTING: Record<ProfileService, keyof Overrides> = {
  publishing: 'PUBLISHING_BASE_URL',
  lodging: 'LODGING_BASE_URL',
};

/** Each service the doctor will read for `tenant`, its address and how it signs in. */
export function serviceTargets(
  tenant: Tenant,
  overrides: Overrides,
  secrets: Secrets,
  from: Secrets = {},
): ServiceTarget[] {
  const targets: ServiceTarget[] = [];
  const where = (service: ProfileService) =>
    overrides[SETTING[service]] ? SETTING[service] : `tenants.json ${service}.baseUrl`;
  targets.push({
    service: 'publishing',
    baseUrl: tenant.publishing.baseUrl,
    from: where('publishing'),
    auth: secrets.publishingReadToken
      ? `read token from ${from.publishingReadToken ?? 'publishingReadToken'}`
      : 'anonymous (no publishingReadToken)',
  });
  if (tenant.lodging && tenant.features.booking) {
    targets.push({
      service: 'lodging',
      baseUrl: tenant.lodging.baseUrl,
      from: where('lodging'),
      auth: secrets.lodgingToken
        ? `token from ${from.lodgingToken ?? 'lodgingToken'}`
        : secrets.lodgingEmail && secrets.lodgingPassword
          ? `sign-in with lodgingEmail/lodgingPassword (${from.lodgingEmail ?? '?'})`
          : 'no credentials (no lodgingToken)',
    });
  }
  return targets;
}

const variableOf = (name: string | undefined, field: string): string =>
  name
    ? `the variable ${name} (tenants.json ${field})`
    : `a variable named in tenants.json ${field}`;

/**
 * What to set when `service` answers 401 or 403: the secret's name in SECRETS_FILE and the variable
 * tenants.json names for it; when one was sent, that it was refused and where it came from.
 */
export function authHint(
  service: ProfileService,
  tenant: Pick<Tenant, 'id' | 'publishing' | 'lodging'>,
  secrets: Secrets,
  from: Secrets = {},
): string {
  if (service === 'publishing') {
    const where = `publishingReadToken for "${tenant.id}" in SECRETS_FILE, or ${variableOf(tenant.publishing.tokenEnv, 'publishing.tokenEnv')}`;
    return secrets.publishingReadToken
      ? `the read token from ${from.publishingReadToken ?? 'publishingReadToken'} was refused: check ${where}`
      : `no publishing read token: set ${where}`;
  }
  const lodging = tenant.lodging;
  const where = `lodgingToken for "${tenant.id}" in SECRETS_FILE, or ${variableOf(lodging?.tokenEnv, 'lodging.tokenEnv')}`;
  if (secrets.lodgingToken)
    return `the lodging token from ${from.lodgingToken ?? 'lodgingToken'} was refused: check ${where}`;
  if (secrets.lodgingEmail && secrets.lodgingPassword) {
    return `signing in with lodgingEmail/lodgingPassword (${from.lodgingEmail ?? '?'}) gave no token: check them, or set ${where}`;
  }
  return `no lodging token: set ${where} (or lodgingEmail and lodgingPassword, ${variableOf(lodging?.emailEnv, 'lodging.emailEnv')})`;
}

/** The doctor's line for one service: the address it reads, where that came from, how it signs in. */
export function targetLine(target: ServiceTarget): string {
  return `${target.service} API: ${target.baseUrl} (from ${target.from}) · ${target.auth}`;
}
