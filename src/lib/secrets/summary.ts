import type { Upstream } from '../upstream/runtime.ts';
import type { SecretKey } from './schema.ts';
import { missingSecrets, type SecretTenant, type TenantSecrets } from './tenant.ts';

/** What a tenant is short of, when it lacks only these: a warning, or just a note. */
const NEEDED: readonly SecretKey[] = ['publishingReadToken', 'lodgingToken'];

/**
 * One line for all tenants (at start-up and after the secrets change): which lack which secret,
 * each tenant id said once, grouped by what they lack. Names only, never a value.
 */
export function secretsSummary(
  tenants: readonly SecretTenant[],
  secretsOf: (tenant: SecretTenant) => TenantSecrets,
  up: Pick<Upstream, 'budget' | 'allowance'>,
  source: string,
): { level: 'info' | 'warn'; message: string } {
  const lacking = tenants
    .map((tenant) => ({ id: tenant.id, missing: missingSecrets(tenant, secretsOf(tenant)) }))
    .filter(({ missing }) => missing.length > 0);
  const head = `Secrets (${source}): ${lacking.length} of ${tenants.length} tenant(s) lack one`;
  if (lacking.length === 0) return { level: 'info', message: `${head}.` };
  const needed = lacking.some(({ missing }) => missing.some((key) => NEEDED.includes(key)));
  const groups = Map.groupBy(lacking, ({ missing }) => missing.join(' + '));
  const ids = (group: typeof lacking) => group.map(({ id }) => id).join(', ');
  const list = [...groups].map(([label, group]) => `no ${label}: ${ids(group)}`).join('; ');
  const anonymous = [...groups.keys()].some((label) => label.includes('publishingReadToken'));
  const perMinute = up.budget.capacity('publishing-public');
  const perVisitor = Math.max(1, Math.ceil(perMinute * up.allowance.visitorShare));
  const budget = anonymous
    ? ` Without publishingReadToken a tenant shares ${perMinute} uncached reads a minute per ` +
      `publishing API address with every other such tenant (one visitor may take ${perVisitor}); ` +
      `with one it has ${up.budget.capacity('publishing-token')} of its own.`
    : '';
  return { level: needed ? 'warn' : 'info', message: `${head}: ${list}.${budget}` };
}

/** The doctor's line for one tenant: what it lacks, and where each secret it has comes from. */
export function tenantSecretsLine(tenant: SecretTenant, secrets: TenantSecrets): string {
  const missing = missingSecrets(tenant, secrets);
  const found = Object.entries(secrets.from).map(([key, from]) => `${key} from ${from}`);
  const lacks = missing.length > 0 ? `lacks ${missing.join(', ')}` : 'lacks none';
  return `Secrets of ${tenant.id}: ${lacks}${found.length > 0 ? ` (${found.join(', ')})` : ''}.`;
}
