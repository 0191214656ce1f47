import { logJsonLine } from '../log/log.ts';
import { namedSecret } from '../settings/settings.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Upstream } from './runtime.ts';
import { originOf } from './identity.ts';

let checked = false;

/**
 * One line per tenant that reads the publishing API without a read token, with the arithmetic of
 * what it shares: every such tenant of this server spends one anonymous per-IP budget.
 */
export function readTokenWarnings(
  tenants: readonly Tenant[],
  up: Pick<Upstream, 'budget' | 'allowance'>,
  secret: (name: string | undefined) => string | undefined = namedSecret,
): { tenant: string; message: string }[] {
  const anonymous = tenants.filter((tenant) => !secret(tenant.publishing.tokenEnv));
  const perMinute = up.budget.capacity('publishing-public');
  const limit = up.budget.limits.publishingPublicPerMinute;
  const perVisitor = Math.max(1, Math.ceil(perMinute * up.allowance.visitorShare));
  const ownBudget = up.budget.capacity('publishing-token');
  return anonymous.map((tenant) => {
    const origin = originOf(tenant.publishing.baseUrl);
    const sharing = anonymous.filter((other) => originOf(other.publishing.baseUrl) === origin);
    const names = sharing.map((other) => other.id).join(', ');
    const token = tenant.publishing.tokenEnv
      ? `set ${tenant.publishing.tokenEnv} (publishing.tokenEnv)`
      : 'set publishing.tokenEnv';
    return {
      tenant: tenant.id,
      message:
        `Tenant "${tenant.id}" has no publishing read token: ${sharing.length} tenant(s) (${names}) ` +
        `share ${perMinute} uncached upstream reads a minute at ${origin} (${limit}/min per server IP, ` +
        `less headroom); one visitor may take ${perVisitor} of them. ` +
        `${token[0]?.toUpperCase()}${token.slice(1)} to give it ${ownBudget} a minute of its own.`,
    };
  });
}

/** Logs `readTokenWarnings` once per process, so once per tenant. */
export function warnTenantsWithoutReadToken(
  tenants: readonly Tenant[],
  up: Pick<Upstream, 'budget' | 'allowance'>,
  log: (line: string) => void = (line) => logJsonLine('warn', line),
): void {
  // Tenants and env are fixed for the life of the process: one look is enough.
  if (checked) return;
  checked = true;
  for (const { tenant, message } of readTokenWarnings(tenants, up)) {
    log(
      JSON.stringify({
        level: 'warn',
        event: 'tenant.no_read_token',
        time: new Date().toISOString(),
        tenant,
        message,
      }),
    );
  }
}
