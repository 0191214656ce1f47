import { setTimeout as sleep } from 'node:timers/promises';
import { describeProblem, type SettingProblem } from '../settings/settings.ts';
import { hasLodgingCredentials, type LodgingCredentials } from '../secrets/tenant.ts';
import type { Tenant } from '../tenants/schema.ts';
import { getRedis } from '../upstream/redis.ts';
import { uncachedJson } from './policy.ts';

/** One answer of `/_health`: operators and load balancers see which part failed, no tenant data. */
export interface Health {
  ok: boolean;
  /** What to fix, when a setting is invalid: names and rules, never the values. */
  reason?: string;
  checks: {
    settings: 'ok' | 'invalid';
    config: 'ok' | 'invalid';
    sharedStore: 'ok' | 'unavailable' | 'not configured';
  };
}

export interface HealthInputs<T extends Pick<Tenant, 'lodging'>> {
  /** The environment's invalid settings (`settingsProblems`); none when absent. */
  settings?: () => readonly SettingProblem[];
  /** The tenants; throws when the configuration cannot be used. */
  readConfig: () => readonly T[];
  /** A tenant's lodging credentials (SECRETS_FILE, then variables: `tenantSecrets`). */
  credentials: (tenant: T) => LodgingCredentials;
  redisUrl: string | undefined;
  /** Resolves when the shared store answers; defaults to a Redis PING. */
  pingStore?: (url: string) => Promise<void>;
}

/** Longest the check waits for Redis: a load balancer's probe must not hang. */
const PING_TIMEOUT_MS = 1000;

async function pingRedis(url: string): Promise<void> {
  const redis = await getRedis(url);
  const late = sleep(PING_TIMEOUT_MS, 'late', { ref: false });
  if ((await Promise.race([redis.ping(), late])) === 'late')
    throw new Error('Redis PING timed out');
}

export async function checkHealth<T extends Pick<Tenant, 'lodging'>>(
  inputs: HealthInputs<T>,
): Promise<Health> {
  // A tenant with lodging whose credentials are nowhere cannot take bookings.
  const lacking = (tenant: T) =>
    tenant.lodging !== undefined && !hasLodgingCredentials(inputs.credentials(tenant));
  let config: Health['checks']['config'] = 'invalid';
  try {
    if (!inputs.readConfig().some(lacking)) config = 'ok';
  } catch {
    // The tenants file cannot be used: `invalid`.
  }
  const problems = inputs.settings?.() ?? [];
  const ping = inputs.pingStore ?? pingRedis;
  const sharedStore: Health['checks']['sharedStore'] = inputs.redisUrl
    ? await ping(inputs.redisUrl).then(
        () => 'ok',
        () => 'unavailable',
      )
    : 'not configured';
  const settings = problems.length > 0 ? 'invalid' : 'ok';
  return {
    // A shared store that does not answer degrades (sessions, shared budgets) but pages still
    // render: 200, so a Redis outage does not take every server out of the load balancer at once.
    ok: settings === 'ok' && config === 'ok',
    ...(problems.length > 0 && {
      reason: `Invalid settings: ${problems.map((problem) => describeProblem(problem, false)).join('; ')}`,
    }),
    checks: { settings, config, sharedStore },
  };
}

/** `/_health` as a response: 200 (`ok`, `degraded`) or 503 (`failing`), JSON, never cached anywhere. */
export function healthResponse(health: Health): Response {
  const degraded = health.checks.sharedStore === 'unavailable';
  const status = !health.ok ? 'failing' : degraded ? 'degraded' : 'ok';
  const body = { status, reason: health.reason, ...health.checks };
  return uncachedJson(health.ok ? 200 : 503, body);
}
