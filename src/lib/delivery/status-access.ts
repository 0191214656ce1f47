import { registry } from '../observability/prometheus.ts';
import { uncached, uncachedJson } from './policy.ts';
import { profileStatus } from '../profiles/status.ts';
import { bearerToken, checkSecret } from '../request/secret-attempts.ts';
import { siteUpstream } from '../services/clients.ts';
import type { TenantsState } from '../tenants/loader.ts';
import { getTenants, tenantRegistry } from '../tenants/registry.ts';

export interface StatusAccessInput {
  /** A direct local request (`locals.visitor.local`, ../request/visitor.ts). */
  local: boolean;
  /** The request's headers, for `Authorization`. */
  headers: Headers;
  /** `STATUS_TOKEN` or `METRICS_TOKEN`; unset: local requests only. */
  token: string | undefined;
  /** Wrong tokens are counted per endpoint for the whole cluster through Redis when set. */
  redisUrl: string | undefined;
}

export type StatusAccess = 'allowed' | 'forbidden' | { retryAfterSeconds: number };

/**
 * `/_status` and `/_metrics` are open to direct local requests, and to anyone with
 * `Authorization: Bearer <token>`; wrong tokens from all addresses together are limited
 * (../request/secret-attempts.ts).
 */
export async function operatorAccess(
  endpoint: 'status' | 'metrics',
  input: StatusAccessInput,
): Promise<StatusAccess> {
  if (input.local) return 'allowed';
  const given = bearerToken(input.headers.get('authorization'));
  if (!input.token || !given) return 'forbidden';
  const check = await checkSecret({
    given,
    expected: input.token,
    scope: endpoint,
    redisUrl: input.redisUrl,
  });
  if (check === 'right') return 'allowed';
  return check === 'wrong' ? 'forbidden' : check;
}

/** The refusal of an operator endpoint: 403, or 429 with `Retry-After` once guesses are spent. */
export function operatorRefusal(access: Exclude<StatusAccess, 'allowed'>, json: boolean): Response {
  const [status, message, headers] =
    access === 'forbidden'
      ? [403, 'Forbidden', {}]
      : [429, 'Too many wrong tokens', { 'Retry-After': String(access.retryAfterSeconds) }];
  return json
    ? uncachedJson(status, { message }, headers)
    : uncached(status, `${message}\n`, headers);
}

/** The `/_status` answer: upstream counters of every tenant as JSON, or 403/429 for anyone else. */
export async function statusResponse(input: StatusAccessInput): Promise<Response> {
  const access = await operatorAccess('status', input);
  if (access !== 'allowed') return operatorRefusal(access, true);
  const body = {
    ...siteUpstream().metrics.getStatus(),
    tenantsFile: tenantsFileStatus(tenantRegistry().state()),
    profiles: profileStatus(getTenants()),
  };
  return uncached(200, JSON.stringify(body, null, 2), { 'Content-Type': 'application/json' });
}

/**
 * The tenants file as operators need it: a file on disk that was refused (the tenant, zod's path and
 * message, since when) while the last good configuration is served; `/_health` stays healthy then,
 * since every page still serves.
 */
export function tenantsFileStatus({ version, tenants, refused }: TenantsState) {
  if (!refused) return { status: 'ok', version, tenants };
  return {
    status: 'refused',
    serving: 'the last good configuration',
    version,
    tenants,
    refusedSince: refused.since,
    reason: refused.message,
    issues: refused.issues,
  };
}

/**
 * `/_metrics`: Prometheus text of this server (prom-client), for direct local requests and for
 * anyone with `Authorization: Bearer $METRICS_TOKEN` (what Prometheus's `authorization` sends).
 */
export async function metricsResponse(input: StatusAccessInput): Promise<Response> {
  const access = await operatorAccess('metrics', input);
  if (access !== 'allowed') return operatorRefusal(access, false);
  return uncached(200, await registry.metrics(), { 'Content-Type': registry.contentType });
}
